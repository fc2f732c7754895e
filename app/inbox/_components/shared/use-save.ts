"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { SaveStatus } from "../ui/feedback";
import { describeFailure, inboxApi } from "./api";

/**
 * A form's save: one call to the inbox API, its outcome as a status for `Feedback`, and the page's
 * server components read again after a success. `save` answers whether it worked.
 */
export function useSave() {
  const router = useRouter();
  const [status, setStatus] = useState<SaveStatus>({});
  const save = async (method: string, path: string, body: unknown, done: string) => {
    setStatus({});
    const outcome = await inboxApi(method, path, body);
    if (!outcome.ok) {
      setStatus({ error: describeFailure(outcome) });
      return false;
    }
    setStatus({ done });
    router.refresh();
    return true;
  };
  return { status, save };
}

/** A form's save, as `useSave` hands it out. */
export type Save = ReturnType<typeof useSave>["save"];
