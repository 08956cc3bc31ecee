-- (No semicolon in these comments: the PostgreSQL driver adapter splits a migration script on every semicolon.)
-- Usernames are compared case-insensitively from now on: the app stores them lower-cased.
-- Accounts whose names differ only by case (e.g. "ADMIN" beside "admin"): the oldest keeps the name, each other one is
-- renamed "<name>-<last 12 characters of its id>", so no two accounts collide and each can still sign in (an
-- administrator tells its owner the new name).
UPDATE "User" SET "username" = lower("username") || '-' || right("id", 12)
WHERE EXISTS (
    SELECT 1 FROM "User" AS "older"
    WHERE lower("older"."username") = lower("User"."username")
      AND ("older"."createdAt" < "User"."createdAt" OR ("older"."createdAt" = "User"."createdAt" AND "older"."id" < "User"."id"))
);

UPDATE "User" SET "username" = lower("username") WHERE "username" <> lower("username");
