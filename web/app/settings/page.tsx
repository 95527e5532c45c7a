import { redirect } from "next/navigation";

/** /settings opens on the members. */
export default function SettingsHome(): never {
  redirect("/settings/members");
}
