"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ShieldCheck } from "lucide-react";
import { toast } from "sonner";
import { FormField } from "@/components/identity/auth/form-field";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { apiRequest, isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import { CURRENT_USER_QUERY_KEY, useAuth } from "@/lib/identity/auth/use-auth";
import { profileInput, type ProfileInput } from "@/lib/workspace/settings/schema";
import { serverFieldErrors } from "@/components/platform/server-errors";

const roleLabels: Record<string, string> = {
  master_admin: "MASTER ADMIN",
  admin: "ADMIN",
  business: "BUSINESS",
  individual: "INDIVIDUAL",
};

/** Settings → Profile: names and e-mail; a master admin also sees the role badge and permissions. */
export function ProfileTab() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const form = useForm<ProfileInput>({
    resolver: zodResolver(profileInput),
    defaultValues: { firstName: user?.firstName ?? "", lastName: user?.lastName ?? "", email: user?.email ?? "" },
  });
  const { errors, isDirty } = form.formState;

  React.useEffect(() => {
    if (user && !form.formState.isDirty) {
      form.reset({ firstName: user.firstName ?? "", lastName: user.lastName ?? "", email: user.email });
    }
  }, [user, form]);

  const save = useMutation<unknown, Error, ProfileInput>({
    mutationFn: async (input) => (await apiRequest("PATCH", "/api/settings/profile", input)).json(),
    onSuccess: async (_data, input) => {
      form.reset(input);
      toast.success("Profile updated", { description: "Your changes have been saved." });
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      const fields = serverFieldErrors(error);
      for (const name of ["firstName", "lastName", "email"] as const) {
        if (fields?.[name]) form.setError(name, { message: fields[name] });
      }
      toast.error("Failed to update profile", { description: serverMessage(error) ?? "Please try again." });
    },
  });

  const isMasterAdmin = user?.role === "master_admin";

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-3">
          <CardTitle>Profile</CardTitle>
          {isMasterAdmin ? (
            <Badge data-testid="settings-role-badge">
              <ShieldCheck aria-hidden />
              {roleLabels[user.role]}
            </Badge>
          ) : null}
        </div>
        <CardDescription>Your name and the e-mail you sign in with.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <form
          onSubmit={form.handleSubmit((values) => save.mutate(values))}
          noValidate
          className="flex flex-col gap-4"
          data-testid="profile-form"
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              id="profile-first-name"
              label="First name"
              autoComplete="given-name"
              error={errors.firstName?.message}
              data-testid="profile-first-name"
              {...form.register("firstName")}
            />
            <FormField
              id="profile-last-name"
              label="Last name"
              autoComplete="family-name"
              error={errors.lastName?.message}
              data-testid="profile-last-name"
              {...form.register("lastName")}
            />
          </div>
          <FormField
            id="profile-email"
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            data-testid="profile-email"
            {...form.register("email")}
          />
          <div>
            <Button type="submit" disabled={save.isPending || !isDirty} data-testid="profile-save">
              {save.isPending ? <Spinner /> : null}
              {save.isPending ? "Saving..." : "Save Changes"}
            </Button>
          </div>
        </form>

        {isMasterAdmin ? (
          <section className="flex flex-col gap-3 border-t border-border pt-6" data-testid="settings-permissions">
            <h3 className="text-sm font-medium">Permissions</h3>
            <ul className="flex flex-wrap gap-2">
              {user.permissions.map((permission) => (
                <li key={permission}>
                  <Badge variant="outline">{permission}</Badge>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </CardContent>
    </Card>
  );
}
