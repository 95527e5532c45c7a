/** localStorage key of the chosen colour scheme ("light" or "dark"; absent = follow the system). */
export const THEME_KEY = "tierwise-theme";
