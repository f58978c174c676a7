"use client";

import * as React from "react";
import Link from "next/link";
import { Controller, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Clock, ShieldCheck, Users } from "lucide-react";
import { toast } from "sonner";
import { FormField } from "@/components/identity/auth/form-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError } from "@/components/ui/field-error";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { apiRequest, serverMessage, storeSessionId } from "@/lib/platform/api-client";
import { signupInput, type SignupInput } from "@/lib/consoles/signup/schema";
import { fullPageNavigate } from "@/lib/platform/utils";
import { PlanPicker, type PublicPlan } from "@/components/workspace/billing/plan-picker";

/** Advanced spec §9: the page goes to the dashboard 2 s after the success toast. */
export const SIGNUP_REDIRECT_MS = 2000;

type SignupResponse = {
  sessionId: string;
  user: { subscriptionTier: string; subscriptionStatus: string; credits: number };
};

const defaultValues: SignupInput = {
  firstName: "",
  lastName: "",
  email: "",
  username: "",
  password: "",
  confirmPassword: "",
  subscriptionTier: "pro",
  role: "business",
  organizationName: "",
  website: "",
  agreeToTerms: false,
};

/** The server's per-field messages (400 validation, 409 taken), if the error carries them. */
function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof Error)) return {};
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return {};
  try {
    const parsed = JSON.parse(match[1]) as { errors?: Record<string, string> };
    return parsed.errors ?? {};
  } catch {
    return {};
  }
}

/** What signing up with the chosen plan costs, and when: said before the account is created. */
function ChargeNotice({ plan }: { plan: PublicPlan | undefined }) {
  if (!plan) return null;
  return (
    <p className="rounded-lg border border-border bg-muted/30 p-3 text-sm" data-testid="signup-charge-notice">
      {plan.price > 0
        ? `${plan.name}: $${plan.price}/month. Nothing is charged when you create the account; you pay $${plan.price} when you complete payment in Billing & Credits, and then every month until you cancel. Until then the Free plan's limits apply.`
        : `${plan.name}: nothing is charged, now or later.`}
    </p>
  );
}

/** /signup (advanced spec §2): plan cards on the left, the Account Information form on the right. */
export function SignupScreen() {
  const plans = useQuery<PublicPlan[]>({ queryKey: ["/api/subscription-plans"] });
  const form = useForm<SignupInput>({ resolver: zodResolver(signupInput), defaultValues });
  const { errors } = form.formState;
  const tier = useWatch({ control: form.control, name: "subscriptionTier" });
  const [redirecting, setRedirecting] = React.useState(false);

  const signup = useMutation({
    meta: { skipGlobalUnauthorized: true },
    mutationFn: async (values: SignupInput) => (await (await apiRequest("POST", "/api/auth/signup", values)).json()) as SignupResponse,
    onSuccess: (result) => {
      storeSessionId(result.sessionId);
      const { subscriptionTier, credits } = result.user;
      toast.success("Account Created Successfully", {
        description: `Your ${subscriptionTier} account is ready with ${credits} credits.`,
      });
      setRedirecting(true);
      window.setTimeout(() => fullPageNavigate("/dashboard"), SIGNUP_REDIRECT_MS);
    },
    onError: (error) => {
      for (const [field, message] of Object.entries(serverFieldErrors(error))) {
        if (field in defaultValues) form.setError(field as keyof SignupInput, { message });
      }
      toast.error("Signup Failed", { description: serverMessage(error) ?? "An error occurred during signup" });
    },
  });

  const pending = signup.isPending || redirecting;

  return (
    <div className="relative mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8" data-testid="signup">
      <div aria-hidden className="absolute inset-x-0 top-0 -z-10 h-72 bg-gradient-to-b from-primary/10 to-transparent" />
      <div className="mb-8 flex flex-col gap-2 text-center">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Start with Switchboard</h1>
        <p className="text-muted-foreground">Choose a plan and create your account. You can change plans at any time in Billing.</p>
      </div>
      <form onSubmit={form.handleSubmit((values) => signup.mutate(values))} noValidate className="grid gap-8 lg:grid-cols-2">
        <section className="flex flex-col gap-6" aria-labelledby="signup-plans-heading">
          <div className="flex flex-col gap-1">
            <h2 id="signup-plans-heading" className="text-xl font-semibold">
              Choose your plan
            </h2>
            <p className="text-sm text-muted-foreground">
              Paid plans include their credits now; their phone-number and assistant limits apply once the first payment is made.
            </p>
          </div>
          <PlanPicker
            plans={plans.data}
            isLoading={plans.isLoading}
            value={tier}
            onChange={(id) => form.setValue("subscriptionTier", id, { shouldValidate: true })}
          />
          <FieldError id="signup-tier-error" message={errors.subscriptionTier?.message} />
          <ul className="grid gap-3 text-sm sm:grid-cols-3">
            <li className="flex items-center gap-2 rounded-lg border border-border bg-card/60 px-3 py-2">
              <Users aria-hidden className="size-4 text-primary" />
              Trusted by 10,000+ businesses
            </li>
            <li className="flex items-center gap-2 rounded-lg border border-border bg-card/60 px-3 py-2">
              <Clock aria-hidden className="size-4 text-primary" />
              99.9% uptime
            </li>
            <li className="flex items-center gap-2 rounded-lg border border-border bg-card/60 px-3 py-2">
              <ShieldCheck aria-hidden className="size-4 text-primary" />
              Credits never expire
            </li>
          </ul>
        </section>

        <Card className="h-fit">
          <CardHeader>
            <CardTitle className="text-xl">Account Information</CardTitle>
            <CardDescription>Tell us about you and your business.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4" data-testid="signup-form">
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField id="signup-first-name" label="First Name" autoComplete="given-name" error={errors.firstName?.message} {...form.register("firstName")} />
              <FormField id="signup-last-name" label="Last Name" autoComplete="family-name" error={errors.lastName?.message} {...form.register("lastName")} />
            </div>
            <FormField
              id="signup-email"
              label="Email"
              type="email"
              autoComplete="email"
              placeholder="you@company.com"
              error={errors.email?.message}
              {...form.register("email")}
            />
            <FormField id="signup-username" label="Username" autoComplete="username" error={errors.username?.message} {...form.register("username")} />
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                id="signup-password"
                label="Password"
                type="password"
                autoComplete="new-password"
                error={errors.password?.message}
                {...form.register("password")}
              />
              <FormField
                id="signup-confirm-password"
                label="Confirm Password"
                type="password"
                autoComplete="new-password"
                error={errors.confirmPassword?.message}
                {...form.register("confirmPassword")}
              />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="flex flex-col gap-2">
                <Label htmlFor="signup-role">Account Type</Label>
                <Select id="signup-role" {...form.register("role")}>
                  <option value="business">Business</option>
                  <option value="individual">Individual</option>
                </Select>
                <FieldError id="signup-role-error" message={errors.role?.message} />
              </div>
              <FormField
                id="signup-organization"
                label="Organization Name (optional)"
                autoComplete="organization"
                error={errors.organizationName?.message}
                {...form.register("organizationName")}
              />
            </div>
            <FormField
              id="signup-website"
              label="Business website (optional)"
              type="url"
              autoComplete="url"
              placeholder="https://yourbusiness.com"
              error={errors.website?.message}
              {...form.register("website")}
            />
            <p className="-mt-2 text-xs text-muted-foreground">
              Your assistant can learn your hours, services and prices from it; you confirm every detail first.
            </p>
            <Controller
              control={form.control}
              name="agreeToTerms"
              render={({ field }) => (
                <div className="flex flex-col gap-1">
                  <div className="flex items-start gap-2">
                    <input
                      id="signup-terms"
                      type="checkbox"
                      className="mt-0.5 size-4 accent-[var(--color-primary)]"
                      checked={field.value === true}
                      onChange={(e) => field.onChange(e.target.checked)}
                      onBlur={field.onBlur}
                      ref={field.ref}
                      aria-invalid={errors.agreeToTerms ? true : undefined}
                      aria-describedby={errors.agreeToTerms ? "signup-terms-error" : undefined}
                    />
                    <Label htmlFor="signup-terms" className="text-sm leading-snug font-normal">
                      <span>
                        I agree to the{" "}
                        <Link href="/terms" target="_blank" className="text-primary underline underline-offset-4">
                          Terms of Service
                        </Link>{" "}
                        and{" "}
                        <Link href="/privacy" target="_blank" className="text-primary underline underline-offset-4">
                          Privacy Policy
                        </Link>
                      </span>
                    </Label>
                  </div>
                  <FieldError id="signup-terms-error" message={errors.agreeToTerms?.message} />
                </div>
              )}
            />
            <ChargeNotice plan={plans.data?.find((p) => p.id === tier)} />
            <Button type="submit" disabled={pending} className="mt-2 w-full" data-testid="signup-submit">
              {pending ? <Spinner /> : null}
              Create Account & Start Free
            </Button>
            <p className="text-center text-sm text-muted-foreground">
              Already have an account?{" "}
              <Link href="/auth" className="text-primary underline underline-offset-4">
                Sign in here
              </Link>
            </p>
          </CardContent>
        </Card>
      </form>
    </div>
  );
}
