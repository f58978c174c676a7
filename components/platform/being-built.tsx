import * as React from "react";
import { Construction } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";

interface BeingBuiltProps {
  feature: string;
  /** One sentence: what the screen will do once it ships. Written for users: no tracker or spec references. */
  description: string;
  children?: React.ReactNode;
}

/** An honest placeholder for a screen that is not built yet: no sample data, just what is coming. */
export function BeingBuilt({ feature, description, children }: BeingBuiltProps) {
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-1 items-center px-4 py-16 sm:px-6">
      <Card className="w-full border-dashed" data-testid="being-built">
        <CardHeader className="items-start gap-4">
          <span className="flex size-11 items-center justify-center rounded-lg bg-warning/15 text-warning">
            <Construction className="size-5" aria-hidden />
          </span>
          <div className="flex flex-col gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant="warning">Coming soon</Badge>
            </div>
            <h1 className="text-xl font-semibold tracking-tight">{feature} is being built</h1>
            <CardDescription className="text-base">{description}</CardDescription>
          </div>
        </CardHeader>
        {children ? <CardContent className="flex flex-wrap gap-3">{children}</CardContent> : null}
      </Card>
    </div>
  );
}
