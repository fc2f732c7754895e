import type { ParleyWindow } from "../shared/global";
import type { Boot } from "../shared/types";
import type { Language } from "../strings/table";

// The visitor's language: data-locale, else the site's (config), else the browser's; English is
// built in, the others are chunks of their own (public/widget/<lang>-<hash>.js), loaded on demand.

declare const __LOCALES__: Record<string, string>;

const pick = (code: string | null | undefined) => {
  const short = (code || "").toLowerCase().split("-")[0]!;
  return short === "en" || __LOCALES__[short] ? short : "";
};

export async function loadStrings(boot: Boot): Promise<Language> {
  const config = await boot.config();
  const code = pick(boot.locale) || pick(config?.locale) || navigator.languages.map(pick).find(Boolean) || "en";
  if (code === "en") return {};
  return new Promise<Language>((done) => {
    const parley = (window as ParleyWindow).Parley;
    if (parley) parley._locale = (got, table) => got === code && done(table);
    boot.inject(__LOCALES__[code]!, () => done({}));
  });
}
