import { notificationDefaults } from "@/lib/workspace/settings/schema";
import { alertSwitch, deliveryFor } from "./notify";

describe("who hears of what (Settings → Notifications)", () => {
  it("alerts for messages, voicemails, missed calls and urgent tasks are on by default, in the app and by e-mail", () => {
    for (const kind of ["call.message", "text.message", "call.voicemail", "call.missed", "task.urgent"]) {
      expect(deliveryFor(kind, { ...notificationDefaults })).toEqual({ inApp: true, email: true });
    }
  });

  it("a handled call shows in the app but is e-mailed only with Email Notifications on", () => {
    expect(deliveryFor("call.handled", { ...notificationDefaults })).toEqual({ inApp: true, email: false });
    expect(deliveryFor("call.handled", { ...notificationDefaults, emailNotifications: true })).toEqual({ inApp: true, email: true });
  });

  it("each alert has its own switch, and switching one off leaves the others", () => {
    const prefs = { ...notificationDefaults, voicemailAlerts: false };
    expect(deliveryFor("call.voicemail", prefs)).toEqual({ inApp: false, email: false });
    expect(deliveryFor("call.missed", prefs)).toEqual({ inApp: true, email: true });
    expect(alertSwitch("task.urgent")).toBe("urgentTaskAlerts");
    expect(alertSwitch("call.handled")).toBeNull();
  });

  it("e-mail for alerts can be switched off while they still show in the app", () => {
    expect(deliveryFor("call.missed", { ...notificationDefaults, alertEmails: false })).toEqual({ inApp: true, email: false });
  });

  it("Call Alerts off silences every call alert; a text's alert does not depend on it", () => {
    const prefs = { ...notificationDefaults, callAlerts: false };
    expect(deliveryFor("call.missed", prefs).inApp).toBe(false);
    expect(deliveryFor("call.handled", prefs).inApp).toBe(false);
    expect(deliveryFor("text.message", prefs).inApp).toBe(true);
  });

  it("a recap follows System Updates", () => {
    expect(deliveryFor("recap", { ...notificationDefaults })).toEqual({ inApp: true, email: false });
    expect(deliveryFor("recap", { ...notificationDefaults, systemUpdates: false }).inApp).toBe(false);
  });
});
