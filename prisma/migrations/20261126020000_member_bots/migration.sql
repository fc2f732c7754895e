-- Bots are members with `bot` set (decisions.md, round 3): the inbox marks their messages, and
-- reports never count them as a first response. The demo's agent is one; seeded before this
-- migration under the service's own name, it takes the demo shop's (unless an operator renamed it).
ALTER TABLE "members" ADD COLUMN "bot" BOOLEAN NOT NULL DEFAULT false;
UPDATE "members" SET "bot" = true WHERE "id" = 'demo-agent';
UPDATE "members" SET "name" = 'Mira from Lumen & Co.' WHERE "id" = 'demo-agent' AND "name" = 'Ada from Parley';
-- Its picture becomes the shop's lamp, where it is still the first seed's smiley.
UPDATE "members"
   SET "avatar_bytes" = decode('iVBORw0KGgoAAAANSUhEUgAAAGAAAABgCAIAAABt+uBvAAABlklEQVR42u3bL24CQRiG8fcEVah6FALVG4BG1OJWYDgAqQRXgyThAFgQNWOBYFAIRBWObMIFCEnTiiWkTRPUfJPO1yd5T/DLs3+S2dXb8yO7M0EAEEAAAQQQQAABxAACCCCAAAIIIIAYQAABBNC/AtoM2h/lOuI2g7YroNNqGhfotJr6AYqeT8qIlGM+KSNSpvkki0iZ5pMsIuWbT5qIlG8+aSJS1vkkiEhZ55MgIuWej3VEyj0f64jkIB/TiOQgH9OI5CMfu4jkIx+7iOQmH6OI5CYfo4jkKR+LiOQpH4uI5Cyf6BHJWT7RI5K/fOJGJH/5xI3oTxwcLvvNy270+f5622U3WvabnKxeV85733WqlfMeQNf91qkGEEBcYtykE21RNPazotLZz4pF0eD7oB+btGovTw+3TVo1gAACCCCAAAIIIIAAAggggAACCCCAAPIIZH1ACBBAAAF0b9th53wIFjTnQ9gOOx6eYqFbP4ZxXJ1jGIdund/CeQ8CCCCAAGIAAQQQQAABBBBADCCAAAIIIIAc7QuMw1FoTSI/MwAAAABJRU5ErkJggg==', 'base64'),
       "avatar_content_type" = 'image/png',
       "avatar_tag" = 'fdb7370b33477d527e4c20af738ae60602eda834e284425d2668d90a7646114c'
 WHERE "id" = 'demo-agent' AND "avatar_tag" = 'af564e92b94b7aa9ccfde983d0a78df39ae8ebf099d9c0aa9adce77fbf13f396';
