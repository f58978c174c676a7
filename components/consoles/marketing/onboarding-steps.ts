import type { LucideIcon } from "lucide-react";
import { PhoneCall, UserPlus, Workflow } from "lucide-react";

export interface OnboardingStep {
  title: string;
  summary: string;
  details: string[];
  icon: LucideIcon;
}

/** The three-step story (spec core §1), shared by the landing page and the demo walkthrough. */
export const onboardingSteps: OnboardingStep[] = [
  {
    title: "Sign up",
    summary: "Create your Switchboard account with your email and pick the plan that fits.",
    details: [
      "Your account comes with a dashboard for calls, messages and assistants.",
      "Invite nothing, install nothing: it all runs in the browser.",
    ],
    icon: UserPlus,
  },
  {
    title: "Choose a number",
    summary: "Get a new number with your preferred area code, or bring the number your customers already call.",
    details: [
      "New numbers come straight from our telephony provider.",
      "Keeping your existing number means nothing changes for your callers.",
    ],
    icon: PhoneCall,
  },
  {
    title: "Start automating",
    summary: "Your voice assistant answers, takes messages, books appointments and sends you a daily recap.",
    details: [
      "Every call is transcribed and summarised.",
      "Missed calls reach the AI receptionist instead of voicemail.",
    ],
    icon: Workflow,
  },
];
