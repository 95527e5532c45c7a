/** Enrollment-token lifetimes the form offers, seconds -> label (the API accepts 60 s to 30 days). */
export const LIFETIMES = { "3600": "1 hour", "86400": "24 hours", "604800": "7 days" } as const;
