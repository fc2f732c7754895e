import { WIDGET_LOCALES } from "../contracts/sites";

// The public lines the server writes into a conversation, in the widget's languages (round 4, "the
// first hour"): the same words as the widget's own tables (widget/src/locales/*.ts), so a German
// widget reads German from both. The conversation's language is the one its widget shows: the
// site's `locale` setting, else the visitor's browser language sent at the start, else English.
// (A page's data-locale attribute is not sent to the server: such a page reads the site's or the
// browser's language from the server.)

export type NoticeLanguage = (typeof WIDGET_LOCALES)[number];
export type Notice = "closed" | "reopened";

const NOTICES: Record<NoticeLanguage, Record<Notice, string>> = {
  en: { closed: "This conversation was closed.", reopened: "This conversation was reopened." },
  de: { closed: "Dieses Gespräch wurde beendet.", reopened: "Dieses Gespräch wurde wieder geöffnet." },
  fr: { closed: "Cette conversation a été fermée.", reopened: "Cette conversation a été rouverte." },
  es: { closed: "Esta conversación se ha cerrado.", reopened: "Esta conversación se ha reabierto." },
  ar: { closed: "أُغلقت هذه المحادثة.", reopened: "أُعيد فتح هذه المحادثة." },
};

const known = (code: string | null | undefined): NoticeLanguage | null => {
  const short = (code ?? "").toLowerCase().split("-")[0] as NoticeLanguage;
  return (WIDGET_LOCALES as readonly string[]).includes(short) ? short : null;
};

/** The widget's language for a conversation: the site's setting, else the browser's, else English. */
export const conversationLanguage = (siteLocale: string | null, browserLocale: string | null): NoticeLanguage =>
  known(siteLocale) ?? known(browserLocale) ?? "en";

export const noticeText = (notice: Notice, language: NoticeLanguage): string => NOTICES[language][notice];
