/** A single string query parameter of an account page (the first when repeated), or "". */
export async function queryParam(searchParams: Promise<Record<string, string | string[] | undefined>>, name: string): Promise<string> {
  const value = (await searchParams)[name];
  return (Array.isArray(value) ? value[0] : value) ?? "";
}
