export * from "./organizations";
export * from "./auth";
export * from "./telephony";
export * from "./settings";
export * from "./billing";
export * from "./voice";
export * from "./payments";
export * from "./jobs";
