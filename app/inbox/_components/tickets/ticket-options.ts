import type { SelectOption } from "../ui/select-field";

/** A ticket's statuses and priorities as the inbox's pickers show them (list filters and triage). */
export const TICKET_STATUSES: SelectOption[] = [
  { value: "open", label: "Open" },
  { value: "pending", label: "Pending" },
  { value: "solved", label: "Solved" },
];

export const TICKET_PRIORITIES: SelectOption[] = [
  { value: "low", label: "Low" },
  { value: "normal", label: "Normal" },
  { value: "high", label: "High" },
  { value: "urgent", label: "Urgent" },
];
