/**
 * The seeded accounts. The sign-in screen shows the demo account's real credentials, and the seed
 * creates exactly these, so the hint can never drift from the data.
 */
export const demoAccount = {
  email: "demo@switchboard.dev",
  password: "demo1234",
  username: "demo",
  firstName: "Dana",
  lastName: "Reyes",
  role: "individual",
} as const;

export const demoAdminAccount = {
  email: "admin@switchboard.dev",
  password: "admin1234",
  username: "admin",
  firstName: "Alex",
  lastName: "Morgan",
  role: "admin",
} as const;

export const demoMasterAccount = {
  email: "master@switchboard.dev",
  password: "master1234",
  username: "master",
  firstName: "Morgan",
  lastName: "Lee",
  role: "master_admin",
} as const;

export const demoOrganizationName = "Harbor Dental Studio";
