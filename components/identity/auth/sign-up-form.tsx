"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { showToastAcrossNavigation } from "@/components/identity/auth/flash-toast";
import { Spinner } from "@/components/ui/spinner";
import { serverMessage } from "@/lib/platform/api-client";
import { registerFormInput, type RegisterFormInput } from "@/lib/identity/auth/schemas";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { fullPageNavigate } from "@/lib/platform/utils";
import { returnPathFromLocation } from "./return-path";
import { FormField } from "./form-field";

export function SignUpForm() {
  const { registerMutation } = useAuth();
  const form = useForm<RegisterFormInput>({
    resolver: zodResolver(registerFormInput),
    defaultValues: { email: "", password: "", confirmPassword: "", username: "", firstName: "", lastName: "" },
  });
  const { errors } = form.formState;

  const onSubmit = ({ email, password, username, firstName, lastName }: RegisterFormInput) => {
    // confirmPassword stays in the browser.
    registerMutation.mutate({ email, password, username, firstName, lastName }, {
      onSuccess: () => {
        showToastAcrossNavigation({
          type: "success",
          title: "Account created!",
          description: "You've been registered and logged in successfully.",
        });
        fullPageNavigate(returnPathFromLocation() ?? "/dashboard");
      },
      onError: (error) => {
        toast.error("Registration failed", { description: serverMessage(error) ?? "Please try again." });
      },
    });
  };

  const pending = registerMutation.isPending;

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4" data-testid="register-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id="register-first-name"
          label="First name"
          autoComplete="given-name"
          error={errors.firstName?.message}
          data-testid="register-first-name"
          {...form.register("firstName")}
        />
        <FormField
          id="register-last-name"
          label="Last name"
          autoComplete="family-name"
          error={errors.lastName?.message}
          data-testid="register-last-name"
          {...form.register("lastName")}
        />
      </div>
      <FormField
        id="register-username"
        label="Username"
        autoComplete="username"
        error={errors.username?.message}
        data-testid="register-username"
        {...form.register("username")}
      />
      <FormField
        id="register-email"
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@company.com"
        error={errors.email?.message}
        data-testid="register-email"
        {...form.register("email")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id="register-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          data-testid="register-password"
          {...form.register("password")}
        />
        <FormField
          id="register-confirm-password"
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          data-testid="register-confirm-password"
          {...form.register("confirmPassword")}
        />
      </div>
      <Button type="submit" disabled={pending} className="mt-2 w-full" data-testid="register-submit">
        {pending ? <Spinner /> : null}
        {pending ? "Creating account..." : "Create Account"}
      </Button>
    </form>
  );
}
