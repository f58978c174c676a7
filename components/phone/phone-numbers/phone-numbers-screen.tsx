"use client";

import * as React from "react";
import { Phone, Plus, RotateCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { AddNumberDialog } from "./add-number-dialog";
import { PhoneNumberCard } from "./phone-number-card";
import { usePhoneNumbers } from "./use-phone-numbers";

/** /phone-numbers (spec core §2): the card grid or the empty state, with the Add Number dialog. */
export function PhoneNumbersScreen() {
  const { data: numbers, isLoading, isError, refetch, isRefetching } = usePhoneNumbers();
  const [adding, setAdding] = React.useState(false);

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="phone-numbers">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Phone Numbers</h1>
          <p className="text-muted-foreground">Your business numbers, the assistant answering each, and how calls are routed.</p>
        </div>
        <Button onClick={() => setAdding(true)} data-testid="phone-numbers-add">
          <Plus aria-hidden />
          Add Number
        </Button>
      </div>

      {isError ? (
        <div
          role="alert"
          className="flex flex-col gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
        >
          <span>We couldn&apos;t load your phone numbers.</span>
          <Button size="sm" variant="outline" onClick={() => void refetch()} disabled={isRefetching}>
            <RotateCw aria-hidden className={isRefetching ? "animate-spin" : undefined} />
            Try again
          </Button>
        </div>
      ) : null}

      {isLoading ? (
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 xl:grid-cols-3" role="status" aria-busy="true" aria-label="Loading phone numbers">
          {[0, 1, 2].map((i) => (
            <Card key={i}>
              <CardHeader className="gap-2">
                <Skeleton className="h-6 w-44" />
                <Skeleton className="h-4 w-28" />
              </CardHeader>
              <CardContent className="flex flex-col gap-2">
                <Skeleton className="h-4 w-full" />
                <Skeleton className="h-4 w-2/3" />
              </CardContent>
              <CardFooter className="gap-2">
                <Skeleton className="h-8 w-16" />
                <Skeleton className="h-8 w-24" />
              </CardFooter>
            </Card>
          ))}
        </div>
      ) : numbers && numbers.length > 0 ? (
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 xl:grid-cols-3" data-testid="phone-numbers-grid">
          {numbers.map((n) => (
            <PhoneNumberCard key={n.id} number={n} />
          ))}
        </div>
      ) : !isError ? (
        <Card className="border-dashed" data-testid="phone-numbers-empty">
          <CardContent className="flex flex-col items-center gap-4 px-6 py-14 text-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
              <Phone className="size-6" aria-hidden />
            </span>
            <div className="flex flex-col gap-1">
              <h2 className="text-lg font-semibold">No Phone Numbers</h2>
              <p className="max-w-md text-sm text-muted-foreground">
                Get a new number with your preferred area code, or bring the one your customers already know.
              </p>
            </div>
            <Button onClick={() => setAdding(true)} data-testid="phone-numbers-empty-add">
              <Plus aria-hidden />
              Add Number
            </Button>
          </CardContent>
        </Card>
      ) : null}

      <AddNumberDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}
