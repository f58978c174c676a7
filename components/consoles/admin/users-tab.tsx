"use client";

import * as React from "react";
import { Coins, Pencil, Search, Trash2, UserPlus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { stackOnPhone, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { RoleBadge, StatusBadge, TierBadge } from "./badges";
import { AddUserDialog, AdjustCreditsDialog, EditUserDialog } from "./user-dialogs";
import { useAdminUsers, useDeleteUser, type AdminUser } from "./use-admin";

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = React.useState(value);
  React.useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Users across every organization: search, role filter, edit, credits, delete, add. */
export function UsersTab() {
  const { user: me } = useAuth();
  const [search, setSearch] = React.useState("");
  const [role, setRole] = React.useState("all");
  const debouncedSearch = useDebounced(search, 300);
  const query = useAdminUsers(debouncedSearch, role);
  const deleteMutation = useDeleteUser();
  const [editing, setEditing] = React.useState<AdminUser | null>(null);
  const [adjusting, setAdjusting] = React.useState<AdminUser | null>(null);
  const [deleting, setDeleting] = React.useState<AdminUser | null>(null);
  const [adding, setAdding] = React.useState(false);
  const rows = query.data?.pages.flatMap((p) => p.users) ?? [];
  const protectedRow = (u: AdminUser) => u.id === me?.id || (u.role === "master_admin" && me?.role !== "master_admin");

  return (
    <Card>
      <CardContent className="flex flex-col gap-4 p-5">
        <div className="flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
          <div className="flex flex-1 flex-col gap-3 sm:flex-row">
            <div className="relative flex-1">
              <Search aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
              <Input
                type="search"
                aria-label="Search users"
                placeholder="Search users..."
                className="pl-8"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                data-testid="admin-user-search"
              />
            </div>
            <div className="sm:w-44">
              <Select aria-label="Filter by role" value={role} onChange={(e) => setRole(e.target.value)} data-testid="admin-role-filter">
                <option value="all">All Roles</option>
                <option value="individual">Individual</option>
                <option value="business">Business</option>
                <option value="admin">Admin</option>
                <option value="master_admin">Master Admin</option>
              </Select>
            </div>
          </div>
          <Button onClick={() => setAdding(true)} data-testid="admin-add-user">
            <UserPlus aria-hidden />
            Add User
          </Button>
        </div>

        {query.isError ? (
          <div role="alert" className="flex items-center justify-between rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm">
            <span>We couldn&apos;t load the users.</span>
            <Button size="sm" variant="outline" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        ) : null}

        <Table data-testid="admin-users-table" className={stackOnPhone}>
          <TableHeader>
            <TableRow>
              <TableHead>Email</TableHead>
              <TableHead>Role</TableHead>
              <TableHead>Organization</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {query.isLoading
              ? Array.from({ length: 3 }, (_, i) => (
                  <TableRow key={i}>
                    <TableCell colSpan={5}>
                      <Skeleton className="h-6 w-full" />
                    </TableCell>
                  </TableRow>
                ))
              : null}
            {!query.isLoading && rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={5} className="py-8 text-center text-muted-foreground">
                  No users match.
                </TableCell>
              </TableRow>
            ) : null}
            {rows.map((u) => (
              <TableRow key={u.id} data-testid="admin-user-row">
                <TableCell data-label="Email">
                  <div className="flex flex-col">
                    <span className="font-medium">{u.email}</span>
                    <span className="text-xs text-muted-foreground">
                      {`${u.firstName} ${u.lastName}`.trim()} · @{u.username}
                    </span>
                  </div>
                </TableCell>
                <TableCell data-label="Role">
                  <RoleBadge role={u.role} />
                </TableCell>
                <TableCell data-label="Organization">
                  <div className="flex flex-col gap-1">
                    <span>{u.organizationName}</span>
                    <span className="flex items-center gap-2 text-xs text-muted-foreground">
                      <TierBadge tier={u.subscriptionTier} />
                      {u.credits.toLocaleString("en-US")} credits
                    </span>
                  </div>
                </TableCell>
                <TableCell data-label="Status">
                  <StatusBadge status={u.status} />
                </TableCell>
                <TableCell data-label="Actions">
                  <div className="flex justify-end gap-1">
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={`Edit ${u.email}`}
                      disabled={u.role === "master_admin" && me?.role !== "master_admin"}
                      onClick={() => setEditing(u)}
                      data-testid="admin-edit-user"
                    >
                      <Pencil aria-hidden />
                    </Button>
                    <Button size="icon" variant="ghost" aria-label={`Adjust credits for ${u.email}`} onClick={() => setAdjusting(u)} data-testid="admin-adjust-credits">
                      <Coins aria-hidden />
                    </Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={`Delete ${u.email}`}
                      disabled={protectedRow(u)}
                      onClick={() => setDeleting(u)}
                      data-testid="admin-delete-user"
                    >
                      <Trash2 aria-hidden className="text-destructive" />
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>

        {query.hasNextPage ? (
          <div className="flex justify-center">
            <Button variant="outline" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
              {query.isFetchingNextPage ? <Spinner /> : null}
              Load more
            </Button>
          </div>
        ) : null}
      </CardContent>

      <EditUserDialog user={editing} onOpenChange={(open) => (!open ? setEditing(null) : undefined)} />
      <AdjustCreditsDialog user={adjusting} onOpenChange={(open) => (!open ? setAdjusting(null) : undefined)} />
      <AddUserDialog open={adding} onOpenChange={setAdding} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (!open ? setDeleting(null) : undefined)}
        title="Delete User"
        description="Are you sure you want to delete this user? Their sign-in and settings are deleted and cannot be restored. A business's only user cannot be deleted: add another user to the business first."
        confirmLabel="Delete"
        destructive
        pending={deleteMutation.isPending}
        onConfirm={() => {
          if (deleting) deleteMutation.mutate(deleting, { onSettled: () => setDeleting(null) });
        }}
      />
    </Card>
  );
}
