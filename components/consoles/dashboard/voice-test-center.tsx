import Link from "next/link";
import { ExternalLink, Mic, Smartphone } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

export function VoiceTestCenter() {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <Mic className="size-4 text-primary" aria-hidden />
          Voice Test Center
        </CardTitle>
        <CardDescription>
          Hear how your assistant answers: type a phrase on the web, or chat with it from a phone-sized screen.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 sm:flex-row">
        <Button asChild className="flex-1">
          <Link href="/voice-test" data-testid="voice-test-web">
            <Mic aria-hidden />
            Web Test
          </Link>
        </Button>
        <Button asChild variant="outline" className="flex-1">
          <a href="/mobile-preview" target="_blank" rel="noopener noreferrer" data-testid="voice-test-mobile">
            <Smartphone aria-hidden />
            Mobile Test
            <ExternalLink className="size-3.5 text-muted-foreground" aria-hidden />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}
