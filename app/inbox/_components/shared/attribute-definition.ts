/** A visitor attribute's definition as the inbox shows it: the sidebar's editor and Settings read it (docs/attributes.md). */
export interface AttributeDefinitionView {
  key: string;
  label: string;
  type: "text" | "number" | "date" | "boolean" | "list" | "link";
  options: string[];
}
