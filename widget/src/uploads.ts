// The uploads chunk (public/widget/uploads-<hash>.js): files in chat (pick, paste, drop, progress,
// cancel, retry; images and file chips in messages) and the "leave a message" form with its files.
// Most visitors never use either, so opening the panel and chatting does not load it.
import { fileProblem, showFiles, uploadFiles } from "./files";
import { initTickets } from "./tickets";
import { boot } from "./session";
import { adoptStyle } from "./style";
import { addStrings } from "./strings";
import { UPLOADS_EN } from "./strings-uploads";
import type { ParleyWindow } from "./types";
import { UPLOADS_CSS } from "./uploads-style";

const UPLOADS = { fileProblem, showFiles, uploadFiles, initTickets };
export type Uploads = typeof UPLOADS;

addStrings("uploads", UPLOADS_EN);
adoptStyle(boot.root, UPLOADS_CSS);
(window as ParleyWindow).Parley?._chunk?.("uploads", UPLOADS);
