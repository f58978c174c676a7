"use client";

import * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { FullScreenLoader } from "@/components/platform/full-screen-loader";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { SignInForm } from "./sign-in-form";
import { SignUpForm } from "./sign-up-form";
import { returnPathFromLocation } from "./return-path";

export type AuthTab = "signin" | "signup";

export function AuthScreen({ initialTab }: { initialTab: AuthTab }) {
  const router = useRouter();
  const { isLoading, isAuthenticated, loginMutation, registerMutation } = useAuth();
  const [tab, setTab] = React.useState<AuthTab>(initialTab);
  // After a successful submit the form itself does a full-page redirect; don't race it.
  const submitted = loginMutation.isSuccess || registerMutation.isSuccess;

  React.useEffect(() => {
    if (isAuthenticated && !submitted) router.replace(returnPathFromLocation() ?? "/dashboard");
  }, [isAuthenticated, submitted, router]);

  if (isLoading || (isAuthenticated && !submitted)) return <FullScreenLoader />;

  return (
    <div className="relative flex flex-1 items-center justify-center px-4 py-12 sm:py-16">
      <div aria-hidden className="absolute inset-x-0 top-0 -z-10 h-72 bg-gradient-to-b from-primary/10 to-transparent" />
      <Card className="w-full max-w-md shadow-xl shadow-black/20">
        <CardHeader className="text-center">
          <h1 className="sr-only">Switchboard: sign in or create an account</h1>
          <CardTitle className="text-2xl">
            {tab === "signin" ? "Welcome back" : "Create your account"}
          </CardTitle>
          <CardDescription>
            {tab === "signin"
              ? "Sign in to manage your numbers, assistants and calls."
              : "Set up Switchboard for your business in a minute."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Tabs value={tab} onValueChange={(value) => setTab(value as AuthTab)}>
            <TabsList className="grid w-full grid-cols-2">
              <TabsTrigger value="signin" data-testid="tab-signin">
                Sign In
              </TabsTrigger>
              <TabsTrigger value="signup" data-testid="tab-signup">
                Sign Up
              </TabsTrigger>
            </TabsList>
            <TabsContent value="signin" className="pt-2">
              <SignInForm />
            </TabsContent>
            <TabsContent value="signup" className="pt-2">
              <SignUpForm />
            </TabsContent>
          </Tabs>
          <p className="mt-6 text-center text-xs text-muted-foreground">
            By continuing you agree to our{" "}
            <Link href="/terms" className="underline underline-offset-2 hover:text-foreground">
              Terms of Service
            </Link>{" "}
            and{" "}
            <Link href="/privacy" className="underline underline-offset-2 hover:text-foreground">
              Privacy Policy
            </Link>
            .
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
