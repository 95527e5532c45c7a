"use client";

import { useEffect, useState } from "react";
import { THEME_KEY } from "@/lib/theme";

/** The colour scheme the user picked; "system" follows prefers-color-scheme. */
type Theme = "system" | "light" | "dark";
const ORDER: Theme[] = ["system", "light", "dark"];

/**
 * Cycles the colour scheme system → light → dark, sets data-theme on <html> (globals.css maps
 * it to color-scheme, which every light-dark() colour follows) and remembers the choice.
 */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>("system");
  useEffect(() => {
    const saved = localStorage.getItem(THEME_KEY);
    if (saved === "light" || saved === "dark") setTheme(saved);
  }, []);
  const next = ORDER[(ORDER.indexOf(theme) + 1) % ORDER.length];
  const choose = () => {
    setTheme(next);
    if (next === "system") {
      localStorage.removeItem(THEME_KEY);
      delete document.documentElement.dataset.theme;
    } else {
      localStorage.setItem(THEME_KEY, next);
      document.documentElement.dataset.theme = next;
    }
  };
  return (
    <button type="button" className="theme-toggle" onClick={choose} aria-label={`Colour scheme: ${theme}. Switch to ${next}`} data-testid="theme-toggle" data-theme-choice={theme}>
      {theme === "dark" ? "☾" : theme === "light" ? "☀" : "◐"} <span className="theme-toggle__text">{theme}</span>
    </button>
  );
}
