import type { NoticeLanguage } from "../conversations/notices";

// A transcript email's words in the conversation's language (lib/conversations/notices.ts), signed
// with the widget's title (the site's `title` setting), never the site's internal name; a site
// without a title signs as "the team" in that language.

interface TranscriptWords {
  team: string;
  you: string;
  subject: (from: string) => string;
  intro: (from: string, name: string | null) => string;
  earlier: (count: number) => string;
  replyHint: string;
  footer: (from: string) => string;
}

export const TRANSCRIPT_WORDS: Record<NoticeLanguage, TranscriptWords> = {
  en: {
    team: "the team",
    you: "You",
    subject: (from) => `Your conversation with ${from}`,
    intro: (from, name) => `${name ? `Hello ${name}, here` : "Here"} is your conversation with ${from}, as you asked.`,
    earlier: (count) => ` The ${count} earlier ${count === 1 ? "message is" : "messages are"} not included.`,
    replyHint: " Reply to this email to write to us again.",
    footer: (from) => `Sent by ${from} because you asked for this conversation by email.`,
  },
  de: {
    team: "das Team",
    you: "Sie",
    subject: (from) => `Ihr Gespräch mit ${from}`,
    intro: (from, name) => `${name ? `Hallo ${name}, hier` : "Hier"} ist Ihr Gespräch mit ${from}, wie gewünscht.`,
    earlier: (count) => ` ${count === 1 ? "Die frühere Nachricht ist" : `Die ${count} früheren Nachrichten sind`} nicht enthalten.`,
    replyHint: " Antworten Sie auf diese E-Mail, um uns wieder zu schreiben.",
    footer: (from) => `Gesendet von ${from}, weil Sie dieses Gespräch per E-Mail angefordert haben.`,
  },
  fr: {
    team: "l'équipe",
    you: "Vous",
    subject: (from) => `Votre conversation avec ${from}`,
    intro: (from, name) => `${name ? `Bonjour ${name}, voici` : "Voici"} votre conversation avec ${from}, comme demandé.`,
    earlier: (count) => (count === 1 ? " Le message précédent n'est pas inclus." : ` Les ${count} messages précédents ne sont pas inclus.`),
    replyHint: " Répondez à cet e-mail pour nous écrire à nouveau.",
    footer: (from) => `Envoyé par ${from} parce que vous avez demandé cette conversation par e-mail.`,
  },
  es: {
    team: "el equipo",
    you: "Usted",
    subject: (from) => `Su conversación con ${from}`,
    intro: (from, name) => `${name ? `Hola ${name}, aquí` : "Aquí"} tiene su conversación con ${from}, como pidió.`,
    earlier: (count) => (count === 1 ? " El mensaje anterior no se incluye." : ` Los ${count} mensajes anteriores no se incluyen.`),
    replyHint: " Responda a este correo para volver a escribirnos.",
    footer: (from) => `Enviado por ${from} porque pidió esta conversación por correo.`,
  },
  ar: {
    team: "الفريق",
    you: "أنت",
    subject: (from) => `محادثتك مع ${from}`,
    intro: (from, name) => `${name ? `مرحبًا ${name}، ` : ""}هذه محادثتك مع ${from} كما طلبت.`,
    earlier: (count) => ` لم تُضمَّن الرسائل السابقة (${count}).`,
    replyHint: " رُدّ على هذه الرسالة لتكتب إلينا مجددًا.",
    footer: (from) => `أرسلها ${from} لأنك طلبت هذه المحادثة بالبريد الإلكتروني.`,
  },
};
