"use client";

import Link from "next/link";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { KeyRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { showToastAcrossNavigation } from "@/components/identity/auth/flash-toast";
import { Spinner } from "@/components/ui/spinner";
import { serverMessage } from "@/lib/platform/api-client";
import { loginInput, type LoginInput } from "@/lib/identity/auth/schemas";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { fullPageNavigate } from "@/lib/platform/utils";
import { returnPathFromLocation } from "./return-path";
import { demoAccount } from "@/lib/consoles/demo-accounts";
import { FormField } from "./form-field";

export function SignInForm() {
  const { loginMutation } = useAuth();
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginInput),
    defaultValues: { email: "", password: "" },
  });
  const { errors } = form.formState;

  const onSubmit = (values: LoginInput) => {
    loginMutation.mutate(values, {
      onSuccess: () => {
        showToastAcrossNavigation({
          type: "success",
          title: "Welcome back!",
          description: "You've been logged in successfully.",
        });
        fullPageNavigate(returnPathFromLocation() ?? "/dashboard");
      },
      onError: (error) => {
        toast.error("Login failed", {
          description: serverMessage(error) ?? "Please check your credentials and try again.",
        });
      },
    });
  };

  const fillDemo = () => {
    form.setValue("email", demoAccount.email, { shouldValidate: true });
    form.setValue("password", demoAccount.password, { shouldValidate: true });
  };

  const pending = loginMutation.isPending;

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4" data-testid="login-form">
      <FormField
        id="login-email"
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@company.com"
        error={errors.email?.message}
        data-testid="login-email"
        {...form.register("email")}
      />
      <FormField
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        data-testid="login-password"
        {...form.register("password")}
      />
      <p className="-mt-2 text-right text-sm">
        <Link href="/auth/forgot-password" className="text-muted-foreground underline underline-offset-2 hover:text-foreground" data-testid="login-forgot">
          Forgot password?
        </Link>
      </p>
      <Button type="submit" disabled={pending} className="mt-2 w-full" data-testid="login-submit">
        {pending ? <Spinner /> : null}
        {pending ? "Signing in..." : "Sign In"}
      </Button>

      <div className="flex flex-col gap-3 rounded-lg border border-dashed border-border bg-muted/30 p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
        <p className="text-muted-foreground" data-testid="demo-hint">
          Demo account: {demoAccount.email} / {demoAccount.password}
        </p>
        <Button type="button" variant="secondary" size="sm" onClick={fillDemo} data-testid="demo-fill">
          <KeyRound aria-hidden />
          Use demo account
        </Button>
      </div>
    </form>
  );
}
