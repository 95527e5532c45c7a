/**
 * A volume's or host's name when its agent sent one (`--send-names`), else its pseudonymous id
 * in <code>. With a name, the id is the title (hover or long-press to read and copy it). Names
 * come from agents: React escapes them here; never pass one to dangerouslySetInnerHTML.
 */
export function NameOrId({ name, id, kind }: { name: string | null; id: string; kind: "volume" | "host" }) {
  return name ? <span title={`${kind} id ${id}`}>{name}</span> : <code title={`pseudonymous ${kind} id`}>{id}</code>;
}
