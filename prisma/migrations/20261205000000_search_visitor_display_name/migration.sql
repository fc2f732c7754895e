-- Search finds an anonymous visitor by the name the inbox shows ("Willow Seal"): the generated
-- name of lib/visitors/generated-name.ts, computed the same way in SQL (the first two pairs of bytes
-- of the seed's SHA-256, big-endian, modulo each list's length), so the visitors' index can hold it.
-- tests/integration/search.test.ts compares it with visitorLook() for many seeds.
CREATE FUNCTION parley_generated_name(seed text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (SELECT (ARRAY['Amber', 'Azure', 'Bright', 'Calm', 'Coral', 'Crimson', 'Dawn', 'Dusky', 'Ember', 'Fern', 'Frost', 'Golden', 'Hazel', 'Indigo', 'Ivory', 'Jade', 'Lilac', 'Lunar', 'Maple', 'Misty', 'Olive', 'Pearl', 'Quiet', 'Rosy', 'Russet', 'Sage', 'Silver', 'Sunny', 'Teal', 'Velvet', 'Willow', 'Zesty'])[(get_byte(d, 0) * 256 + get_byte(d, 1)) % 32 + 1]
                   || ' ' ||
                   (ARRAY['Badger', 'Bear', 'Crane', 'Deer', 'Dolphin', 'Eagle', 'Falcon', 'Finch', 'Fox', 'Gecko', 'Hare', 'Heron', 'Ibis', 'Koala', 'Lark', 'Lynx', 'Marten', 'Moose', 'Newt', 'Otter', 'Owl', 'Panda', 'Puffin', 'Quail', 'Raven', 'Robin', 'Seal', 'Swan', 'Tiger', 'Turtle', 'Whale', 'Wren'])[(get_byte(d, 2) * 256 + get_byte(d, 3)) % 32 + 1]
              FROM sha256(convert_to(seed, 'UTF8')) AS d);

-- The visitor's displayed name (given, else generated from the browser's id, else the
-- conversation's visitor id) and email: lib/search/statements.ts's VISITOR_TEXT, the same expression.
DROP INDEX "conversations_search_idx";
CREATE INDEX "conversations_search_idx" ON "conversations"
    USING GIN (parley_search_vector(coalesce("visitor_name", parley_generated_name(coalesce("browser_visitor_id", "visitor_id"))) || ' ' || coalesce("visitor_email", '')));
