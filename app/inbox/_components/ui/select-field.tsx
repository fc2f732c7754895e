import type { SelectHTMLAttributes } from "react";
import styles from "../../inbox.module.css";

export interface SelectOption {
  value: string;
  label: string;
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "className" | "children"> & { id: string };

/** A labelled `<select>` in the inbox's field layout; the rest of the props go to the select. */
export function SelectField({ label, options, ...select }: SelectProps & { label: string; options: SelectOption[] }) {
  return (
    <div className={styles.field}>
      <label htmlFor={select.id}>{label}</label>
      <select className={styles.select} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The site picker of lists, reports and settings: "All sites" first unless a site is required. */
export function SiteSelect({ sites, anyLabel = "All sites", ...select }: SelectProps & { sites: { id: string; name: string }[]; anyLabel?: string | null }) {
  const options = sites.map((site) => ({ value: site.id, label: site.name }));
  return <SelectField label="Site" options={anyLabel === null ? options : [{ value: "", label: anyLabel }, ...options]} {...select} />;
}
