export * from "./organizations";
export * from "./auth";
export * from "./telephony";
