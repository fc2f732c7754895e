import { queryPrepared, type PreparedStatement } from "../db/client";
import { availabilityCutoffs, onlineCondition } from "../availability/availability";
import { canSignInSql } from "../members/can-sign-in";

const ANYONE_ONLINE: PreparedStatement = {
  name: "anyone_online",
  text: `SELECT EXISTS (SELECT 1 FROM members m WHERE ${canSignInSql("m")} AND NOT m.bot
           AND ${onlineCondition("$1::timestamptz", "$2::timestamptz")}) AS online`,
};

/**
 * Someone is there to answer (the widget config's team_available): at least one person (not a
 * bot) who may sign in to the inbox is `online` now. Every such member may answer every site.
 */
export async function anyoneOnline(now = new Date()): Promise<boolean> {
  const { tabSince, inputSince } = availabilityCutoffs(now);
  const [row] = await queryPrepared<{ online: boolean }>(ANYONE_ONLINE, [tabSince, inputSince]);
  return Boolean(row?.online);
}
