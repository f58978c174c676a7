import Link from "next/link";
import { ArrowRight, PlayCircle } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DemoDialog } from "./demo-dialog";
import { ExampleCall } from "./example-call";

export function Hero() {
  return (
    <section className="relative overflow-hidden">
      <div aria-hidden className="bg-grid absolute inset-0 [mask-image:radial-gradient(ellipse_at_top,black_30%,transparent_70%)]" />
      <div
        aria-hidden
        className="absolute top-[-10rem] left-1/2 h-[28rem] w-[56rem] -translate-x-1/2 rounded-full bg-primary/20 blur-3xl"
      />
      <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 pt-20 pb-16 sm:px-6 lg:grid-cols-[1.1fr_0.9fr] lg:px-8 lg:pt-28">
        <div className="flex flex-col items-start gap-6">
          <Badge variant="outline" className="bg-background/60 backdrop-blur">
            <span aria-hidden className="size-1.5 rounded-full bg-primary" />
            The AI phone desk for businesses
          </Badge>
          <h1 className="text-4xl font-semibold tracking-tight text-balance sm:text-5xl lg:text-6xl">
            Every call answered.{" "}
            <span className="bg-gradient-to-r from-primary to-sky-400 bg-clip-text text-transparent">
              Every message handled.
            </span>
          </h1>
          <p className="max-w-xl text-lg text-muted-foreground text-pretty">
            Switchboard gives your business a phone number and an AI voice assistant that answers calls,
            takes messages, books appointments and sends you a recap of it all.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button size="lg" asChild>
              <Link href="/signup" data-testid="landing-get-started">
                Get Started Free
                <ArrowRight aria-hidden />
              </Link>
            </Button>
            <DemoDialog>
              <Button size="lg" variant="outline" data-testid="landing-watch-demo">
                <PlayCircle aria-hidden />
                Watch Demo
              </Button>
            </DemoDialog>
          </div>
        </div>
        <ExampleCall />
      </div>
    </section>
  );
}
