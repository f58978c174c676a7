"use client";

import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { FormField } from "@/components/identity/auth/form-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { apiRequest, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import { NEW_PASSWORD_MIN, passwordInput, type PasswordInput } from "@/lib/workspace/settings/schema";
import { serverFieldErrors } from "@/components/platform/server-errors";

const empty: PasswordInput = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** Settings → Security: change the password; the server ends every other session. */
export function SecurityTab() {
  const form = useForm<PasswordInput>({ resolver: zodResolver(passwordInput), defaultValues: empty });
  const { errors } = form.formState;

  const change = useMutation<unknown, Error, PasswordInput>({
    mutationFn: async (input) => (await apiRequest("POST", "/api/settings/password", input)).json(),
    onSuccess: () => {
      form.reset(empty);
      toast.success("Password updated", { description: "You have been signed out on your other devices." });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      const fields = serverFieldErrors(error);
      for (const name of ["currentPassword", "newPassword", "confirmPassword"] as const) {
        if (fields?.[name]) form.setError(name, { message: fields[name] });
      }
      toast.error("Failed to update password", { description: serverMessage(error) ?? "Please try again." });
    },
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Security</CardTitle>
        <CardDescription>
          Change your password. Use at least {NEW_PASSWORD_MIN} characters; your other sessions will be signed out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={form.handleSubmit((values) => change.mutate(values))}
          noValidate
          className="flex max-w-md flex-col gap-4"
          data-testid="password-form"
        >
          <FormField
            id="current-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            data-testid="current-password"
            {...form.register("currentPassword")}
          />
          <FormField
            id="new-password"
            label="New password"
            type="password"
            autoComplete="new-password"
            error={errors.newPassword?.message}
            data-testid="new-password"
            {...form.register("newPassword")}
          />
          <FormField
            id="confirm-password"
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            data-testid="confirm-password"
            {...form.register("confirmPassword")}
          />
          <div>
            <Button type="submit" disabled={change.isPending} data-testid="password-save">
              {change.isPending ? <Spinner /> : null}
              {change.isPending ? "Updating..." : "Update Password"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
