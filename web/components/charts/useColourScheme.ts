"use client";

import { useSyncExternalStore } from "react";

/** The colour scheme the page is drawn in. */
export type ColourScheme = "light" | "dark";

const DARK_QUERY = "(prefers-color-scheme: dark)";

/** Calls `onChange` when the header's toggle sets data-theme on <html> or the system scheme changes. */
function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener("change", onChange);
  return () => {
    observer.disconnect();
    media.removeEventListener("change", onChange);
  };
}

/** data-theme on <html> when the user chose one (ThemeToggle), else the system's prefers-color-scheme. */
function current(): ColourScheme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === "light" || chosen === "dark") return chosen;
  return window.matchMedia(DARK_QUERY).matches ? "dark" : "light";
}

/**
 * The page's colour scheme, re-rendering the caller when it changes live (no reload): the
 * same rule globals.css applies through color-scheme and light-dark(). "light" on the server.
 */
export function useColourScheme(): ColourScheme {
  return useSyncExternalStore(subscribe, current, () => "light");
}
