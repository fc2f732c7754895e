-- Search over conversations and tickets (decisions.md, round 3, "Search"; docs/search.md).
--
-- Accent folding: parley_fold(text) maps the accented Latin letters (Latin-1 Supplement, Latin
-- Extended-A and -B) to their base letter with translate(), which is IMMUTABLE, so it can sit in an
-- index expression. The unaccent extension would fold more (ligatures such as æ, ß), but it is not
-- IMMUTABLE (it needs a wrapper), the embedded database would have to load it in every place that
-- opens one, and its rules file differs between PostgreSQL versions; translate() gives the same
-- folding on PGlite and on any PostgreSQL 15+, with no extension to install. It keeps the text's
-- length (one character for one), so a snippet computed on the folded text maps back onto the
-- original text character for character (lib/search/snippet.ts). translate() with this map costs
-- several times to_tsvector itself, so plain ASCII (most text; one byte per character) skips it.
CREATE FUNCTION parley_fold(input text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN octet_length(input) = length(input) THEN input ELSE translate(input,
        'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳØøĐđŁłĦħıŦŧÐð',
        'AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiIJjKkLlLlLlNnNnNnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZzOoUuAaIiOoUuUuUuUuUuAaAaGgKkOoOojGgNnAaAaAaEeEeIiIiOoOoRrRrUuUuSsTtHhAaEeOoOoOoOoYyOoDdLlHhiTtDd') END;

-- What every search index holds and every search matches: the folded text, English stemming.
CREATE FUNCTION parley_search_vector(input text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN to_tsvector('english'::regconfig, parley_fold(input));

-- A search box's words as a query: web-search syntax (words ANDed, "quoted phrases", or, -word;
-- never a syntax error), folded and stemmed as the texts are, the last word matched as a prefix
-- when the query ends with a word. NULL when nothing searchable is left (only stop words or
-- punctuation).
CREATE FUNCTION parley_search_query(input text) RETURNS tsquery
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (SELECT CASE WHEN numnode(q) = 0 THEN NULL ELSE regexp_replace(q::text, '''$', ''':*')::tsquery END
              FROM websearch_to_tsquery('english'::regconfig, parley_fold(input)) AS q);

-- One GIN index per searched text, on the same expressions the search's statements use
-- (lib/search/statements.ts). Expression indexes rather than stored tsvector columns: no second
-- copy of every message in the table, and the send path pays only the index entry (GIN's pending
-- list keeps that cheap; docs/performance.md measures it). Messages carry exactly one: their
-- bodies, notes included (staff search). A ticket attachment's name is also searched split at
-- - _ . so that "invoice-march.pdf" is found by "march" as well as by the whole name.
CREATE INDEX "messages_search_idx" ON "messages" USING GIN (parley_search_vector("body"));
CREATE INDEX "conversations_search_idx" ON "conversations"
    USING GIN (parley_search_vector(coalesce("visitor_name", '') || ' ' || coalesce("visitor_email", '')));
CREATE INDEX "tickets_search_idx" ON "tickets"
    USING GIN (parley_search_vector("subject" || ' ' || "body" || ' ' || coalesce("name", '') || ' ' || "email"));
CREATE INDEX "ticket_replies_search_idx" ON "ticket_replies" USING GIN (parley_search_vector("body"));
CREATE INDEX "ticket_attachments_search_idx" ON "ticket_attachments"
    USING GIN (parley_search_vector("name" || ' ' || translate("name", '-_.', '   ')));
-- `#123` looks a ticket up by number in every inbox (the unique index leads with inbox_id).
CREATE INDEX "tickets_number_idx" ON "tickets"("number");
