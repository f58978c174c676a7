"use client";

import * as React from "react";
import { useForm, type FieldValues, type Path, type UseFormReturn } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import {
  adjustCreditsInput,
  createUserInput,
  updateUserInput,
  userStatuses,
  type AdjustCreditsInput,
  type AdjustCreditsValues,
  type CreateUserInput,
  type CreateUserValues,
  type UpdateUserInput,
  type UpdateUserValues,
} from "@/lib/consoles/admin/schema";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { useAdjustCredits, useAdminOrganizations, useCreateUser, useUpdateUser, type AdminUser } from "./use-admin";

const roleLabels: Record<string, string> = {
  individual: "Individual",
  business: "Business",
  admin: "Admin",
  master_admin: "Master Admin",
};

/** Roles the signed-in admin may hand out: only a master admin grants master admin. */
function useAssignableRoles(current?: string): string[] {
  const { user } = useAuth();
  const list = ["individual", "business", "admin"];
  if (user?.role === "master_admin" || current === "master_admin") list.push("master_admin");
  return list;
}

function TextField<T extends FieldValues>({
  form,
  name,
  label,
  type = "text",
  autoComplete,
  testId,
}: {
  form: UseFormReturn<T, unknown, unknown>;
  name: Path<T>;
  label: string;
  type?: string;
  autoComplete?: string;
  testId: string;
}) {
  const id = `admin-${testId}`;
  const error = form.formState.errors[name]?.message;
  const message = typeof error === "string" ? error : undefined;
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type={type}
        autoComplete={autoComplete}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        data-testid={testId}
        {...form.register(name)}
      />
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

function SelectField<T extends FieldValues>({
  form,
  name,
  label,
  options,
  testId,
}: {
  form: UseFormReturn<T, unknown, unknown>;
  name: Path<T>;
  label: string;
  options: { value: string; label: string }[];
  testId: string;
}) {
  const id = `admin-${testId}`;
  const error = form.formState.errors[name]?.message;
  const message = typeof error === "string" ? error : undefined;
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} aria-invalid={message ? true : undefined} data-testid={testId} {...form.register(name)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

/** Cancel and submit, the submit showing a spinner and both disabled while the request runs. */
function DialogActions({ pending, onCancel, submitLabel, testId }: { pending: boolean; onCancel: () => void; submitLabel: string; testId: string }) {
  return (
    <DialogFooter>
      <Button type="button" variant="outline" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending} data-testid={testId}>
        {pending ? <Spinner /> : null}
        {submitLabel}
      </Button>
    </DialogFooter>
  );
}

function editValues(user: AdminUser | null): UpdateUserValues {
  return user
    ? {
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        role: user.role,
        status: user.status,
        subscriptionTier: user.subscriptionTier,
        credits: user.credits,
        creditReason: "",
      }
    : {};
}

/** Edit a user's names, e-mail, role and status (PUT /api/admin/users/{id}). */
export function EditUserDialog({ user, onOpenChange }: { user: AdminUser | null; onOpenChange: (open: boolean) => void }) {
  const mutation = useUpdateUser();
  const roles = useAssignableRoles(user?.role);
  const form = useForm<UpdateUserValues, unknown, UpdateUserInput>({ resolver: zodResolver(updateUserInput), defaultValues: editValues(user) });
  React.useEffect(() => {
    if (user) form.reset(editValues(user));
  }, [user, form]);
  const onSubmit = (patch: UpdateUserInput) => {
    if (user) mutation.mutate({ id: user.id, patch }, { onSuccess: () => onOpenChange(false) });
  };
  const generic = form as unknown as UseFormReturn<FieldValues, unknown, unknown>;
  return (
    <Dialog open={user !== null} onOpenChange={(next) => (!mutation.isPending ? onOpenChange(next) : undefined)}>
      <DialogContent data-testid="admin-edit-user-dialog">
        <DialogHeader>
          <DialogTitle>Edit User</DialogTitle>
          <DialogDescription>Modify user information, subscription, and credits</DialogDescription>
        </DialogHeader>
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField form={generic} name="firstName" label="First Name" testId="edit-first-name" />
            <TextField form={generic} name="lastName" label="Last Name" testId="edit-last-name" />
          </div>
          <TextField form={generic} name="email" label="Email" type="email" testId="edit-email" />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField form={generic} name="role" label="Role" testId="edit-role" options={roles.map((r) => ({ value: r, label: roleLabels[r] }))} />
            <SelectField
              form={generic}
              name="status"
              label="Status"
              testId="edit-status"
              options={userStatuses.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }))}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              form={generic}
              name="subscriptionTier"
              label="Subscription Tier"
              testId="edit-tier"
              options={[
                { value: "free", label: "Free" },
                { value: "pro", label: "Pro" },
                { value: "enterprise", label: "Enterprise" },
              ]}
            />
            <TextField form={generic} name="credits" label="Credits" type="number" testId="edit-credits" />
          </div>
          <TextField form={generic} name="creditReason" label="Reason for a credit change" testId="edit-credit-reason" />
          <p className="text-xs text-muted-foreground">
            A credit change is recorded in the organization&apos;s ledger with this reason. Suspending or cancelling signs the user out everywhere.
          </p>
          <DialogActions pending={mutation.isPending} onCancel={() => onOpenChange(false)} submitLabel={mutation.isPending ? "Saving..." : "Save Changes"} testId="edit-user-save" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Add or remove credits on the user's organization (POST /api/admin/adjust-credits). */
export function AdjustCreditsDialog({ user, onOpenChange }: { user: AdminUser | null; onOpenChange: (open: boolean) => void }) {
  const mutation = useAdjustCredits();
  const form = useForm<AdjustCreditsValues, unknown, AdjustCreditsInput>({
    resolver: zodResolver(adjustCreditsInput),
    defaultValues: { userId: user?.id ?? "", credits: "", reason: "" },
  });
  React.useEffect(() => {
    if (user) form.reset({ userId: user.id, credits: "", reason: "" });
  }, [user, form]);
  const onSubmit = (input: AdjustCreditsInput) => mutation.mutate(input, { onSuccess: () => onOpenChange(false) });
  const generic = form as unknown as UseFormReturn<FieldValues, unknown, unknown>;
  return (
    <Dialog open={user !== null} onOpenChange={(next) => (!mutation.isPending ? onOpenChange(next) : undefined)}>
      <DialogContent data-testid="admin-adjust-credits-dialog">
        <DialogHeader>
          <DialogTitle>Adjust Credits</DialogTitle>
          <DialogDescription>
            {user ? `${user.organizationName} has ${user.credits.toLocaleString("en-US")} credits. ` : null}A positive amount adds
            credits, a negative one removes them. Every adjustment is recorded in the ledger with your name and the reason.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
          <TextField form={generic} name="credits" label="Credits" type="number" testId="adjust-credits-amount" />
          <TextField form={generic} name="reason" label="Reason" testId="adjust-credits-reason" />
          <DialogActions pending={mutation.isPending} onCancel={() => onOpenChange(false)} submitLabel="Adjust Credits" testId="adjust-credits-save" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

const emptyCreate: CreateUserValues = {
  email: "",
  username: "",
  firstName: "",
  lastName: "",
  password: "",
  role: "individual",
  organizationId: "",
};

/** Create a user in an existing organization (POST /api/admin/users); they are not signed in. */
export function AddUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const mutation = useCreateUser();
  const organizations = useAdminOrganizations(open);
  const roles = useAssignableRoles();
  const form = useForm<CreateUserValues, unknown, CreateUserInput>({ resolver: zodResolver(createUserInput), defaultValues: emptyCreate });
  React.useEffect(() => {
    if (open) form.reset(emptyCreate);
  }, [open, form]);
  const onSubmit = (input: CreateUserInput) => mutation.mutate(input, { onSuccess: () => onOpenChange(false) });
  const generic = form as unknown as UseFormReturn<FieldValues, unknown, unknown>;
  const orgOptions = [
    { value: "", label: organizations.isLoading ? "Loading organizations…" : "Choose an organization" },
    ...(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name })),
  ];
  return (
    <Dialog open={open} onOpenChange={(next) => (!mutation.isPending ? onOpenChange(next) : undefined)}>
      <DialogContent className="max-h-[90vh] overflow-y-auto" data-testid="admin-add-user-dialog">
        <DialogHeader>
          <DialogTitle>Add User</DialogTitle>
          <DialogDescription>Create an account in an existing organization. Share the password with them securely.</DialogDescription>
        </DialogHeader>
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField form={generic} name="firstName" label="First Name" testId="add-first-name" />
            <TextField form={generic} name="lastName" label="Last Name" testId="add-last-name" />
          </div>
          <TextField form={generic} name="email" label="Email" type="email" autoComplete="off" testId="add-email" />
          <TextField form={generic} name="username" label="Username" autoComplete="off" testId="add-username" />
          <TextField form={generic} name="password" label="Password" type="password" autoComplete="new-password" testId="add-password" />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField form={generic} name="role" label="Role" testId="add-role" options={roles.map((r) => ({ value: r, label: roleLabels[r] }))} />
            <SelectField form={generic} name="organizationId" label="Organization" testId="add-organization" options={orgOptions} />
          </div>
          <DialogActions pending={mutation.isPending} onCancel={() => onOpenChange(false)} submitLabel="Add User" testId="add-user-save" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
