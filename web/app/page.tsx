import { redirect } from "next/navigation";

/** The portal opens on the volume list. */
export default function Home(): never {
  redirect("/volumes");
}
