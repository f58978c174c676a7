"use client";

import * as React from "react";
import Link from "next/link";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { apiRequest, serverMessage } from "@/lib/platform/api-client";
import {
  forgotPasswordInput,
  resetPasswordFormInput,
  type ForgotPasswordInput,
  type ResetPasswordFormInput,
} from "@/lib/identity/auth/schemas";
import { FormField } from "./form-field";

function Frame({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <div className="relative flex flex-1 items-center justify-center px-4 py-12 sm:py-16">
      <Card className="w-full max-w-md shadow-xl shadow-black/20">
        <CardHeader className="text-center">
          <h1 className="text-2xl font-semibold leading-tight tracking-tight">{title}</h1>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </div>
  );
}

function BackToSignIn() {
  return (
    <p className="mt-6 text-center text-sm">
      <Link href="/auth" className="underline underline-offset-2 hover:text-foreground">
        Back to sign in
      </Link>
    </p>
  );
}

/** /auth/forgot-password: asks for the e-mail and says a link is on its way (the same answer for any address). */
export function ForgotPasswordForm() {
  const [sent, setSent] = React.useState<string | null>(null);
  const [failure, setFailure] = React.useState<string | null>(null);
  const form = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordInput), defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = async (values: ForgotPasswordInput) => {
    setFailure(null);
    try {
      const res = await apiRequest("POST", "/api/auth/forgot-password", values);
      setSent(((await res.json()) as { message: string }).message);
    } catch (error) {
      setFailure(serverMessage(error) ?? "Something went wrong. Please try again.");
    }
  };

  return (
    <Frame title="Forgot your password?" description="Enter the e-mail you sign in with and we will send you a link to choose a new password.">
      {sent ? (
        <p role="status" className="rounded-md border border-border bg-muted/40 p-3 text-sm" data-testid="forgot-sent">
          {sent}
        </p>
      ) : (
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4" data-testid="forgot-form">
          <FormField id="forgot-email" label="Email" type="email" autoComplete="email" placeholder="you@company.com" error={errors.email?.message} data-testid="forgot-email" {...form.register("email")} />
          {failure ? (
            <p role="alert" className="text-sm text-destructive">
              {failure}
            </p>
          ) : null}
          <Button type="submit" disabled={isSubmitting} className="w-full" data-testid="forgot-submit">
            {isSubmitting ? <Spinner /> : null}
            Send reset link
          </Button>
        </form>
      )}
      <BackToSignIn />
    </Frame>
  );
}

/** /auth/reset-password?token=…: the page the e-mailed link opens. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [done, setDone] = React.useState<string | null>(null);
  const [failure, setFailure] = React.useState<string | null>(token ? null : "This reset link is incomplete. Open the link from the e-mail again, or ask for a new one.");
  const form = useForm<ResetPasswordFormInput>({ resolver: zodResolver(resetPasswordFormInput), defaultValues: { newPassword: "", confirmPassword: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = async (values: ResetPasswordFormInput) => {
    setFailure(null);
    try {
      const res = await apiRequest("POST", "/api/auth/reset-password", { token, newPassword: values.newPassword });
      setDone(((await res.json()) as { message: string }).message);
    } catch (error) {
      setFailure(serverMessage(error) ?? "Something went wrong. Please try again.");
    }
  };

  return (
    <Frame title="Choose a new password" description="The link from the e-mail works once, for 30 minutes.">
      {done ? (
        <div className="flex flex-col gap-4">
          <p role="status" className="rounded-md border border-border bg-muted/40 p-3 text-sm" data-testid="reset-done">
            {done}
          </p>
          <Button asChild className="w-full">
            <Link href="/auth">Sign in</Link>
          </Button>
        </div>
      ) : (
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4" data-testid="reset-form">
          <FormField id="reset-password" label="New password" type="password" autoComplete="new-password" error={errors.newPassword?.message} data-testid="reset-password" {...form.register("newPassword")} />
          <FormField id="reset-confirm" label="Confirm new password" type="password" autoComplete="new-password" error={errors.confirmPassword?.message} data-testid="reset-confirm" {...form.register("confirmPassword")} />
          {failure ? (
            <p role="alert" className="text-sm text-destructive" data-testid="reset-failure">
              {failure}{" "}
              <Link href="/auth/forgot-password" className="underline underline-offset-2">
                Ask for a new link
              </Link>
            </p>
          ) : null}
          <Button type="submit" disabled={isSubmitting || !token} className="w-full" data-testid="reset-submit">
            {isSubmitting ? <Spinner /> : null}
            Set new password
          </Button>
        </form>
      )}
      <BackToSignIn />
    </Frame>
  );
}
