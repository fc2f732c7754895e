// The uploads chunk (public/widget/uploads-<hash>.js): files in chat (pick, paste, drop, progress,
// cancel, retry; images and file chips in messages) and the "leave a message" form with its files.
// Most visitors never use either, so opening the panel and chatting does not load it.
import type { UploadsChunk } from "../../shared/chunk-apis";
import { session } from "../../shared/session";
import { addStrings } from "../../shared/strings";
import { adoptStyle } from "../../shared/style";
import type { ParleyWindow } from "../../shared/global";
import { UPLOADS_EN } from "../../strings/uploads";
import { fileProblem, showFiles, uploadFiles } from "./files";
import { initTickets } from "./tickets";
import { UPLOADS_CSS } from "./uploads-style";

const UPLOADS: UploadsChunk = { fileProblem, showFiles, uploadFiles, initTickets };

addStrings("uploads", UPLOADS_EN);
adoptStyle(session.boot.root, UPLOADS_CSS);
(window as ParleyWindow).Parley?._chunk?.("uploads", UPLOADS);
