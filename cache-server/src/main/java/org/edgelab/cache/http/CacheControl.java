package org.edgelab.cache.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import org.edgelab.http.DeltaSeconds;
import org.edgelab.storage.api.ObjectMetadata;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The directives of one message's Cache-Control header field (RFC 9111 §5.2, RFC 5861, RFC 8246),
 * request or response.
 *
 * <p>{@link #parse} is tolerant: directive names are case-insensitive, spaces around {@code ,} and
 * {@code =} are skipped, arguments may be tokens or quoted strings, unknown directives are
 * ignored. Conflicts resolve to the more restrictive reading (RFC 9111 §4.2.1): a repeated
 * {@code max-age} or {@code s-maxage} keeps its smallest value, and an invalid one (missing,
 * negative or not a number) counts as 0, i.e. already stale; other repeated directives keep their
 * first valid value, and an invalid {@code max-stale}, {@code min-fresh}, {@code stale-if-error} or
 * {@code stale-while-revalidate} is ignored. Values beyond 2^31 are clamped to 2^31 (RFC 9111
 * §1.2.2). {@code max-stale} without a value is {@link Long#MAX_VALUE} (any staleness).
 * Field-name lists of qualified {@code no-cache} / {@code private} are lower-cased. Immutable and thread-safe.
 *
 * @param noStore              no-store
 * @param noCache              no-cache, unqualified: no reuse without revalidation
 * @param noCacheFields        fields named by a qualified no-cache (never reused without revalidation)
 * @param isPrivate            private, unqualified: a shared cache must not store the response
 * @param privateFields        fields named by a qualified private (a shared cache must not store them)
 * @param isPublic             public
 * @param maxAge               max-age in seconds
 * @param sMaxAge              s-maxage in seconds
 * @param mustRevalidate       must-revalidate
 * @param proxyRevalidate      proxy-revalidate
 * @param mustUnderstand       must-understand
 * @param maxStale             max-stale in seconds ({@link Long#MAX_VALUE} when given without a value)
 * @param minFresh             min-fresh in seconds
 * @param onlyIfCached         only-if-cached
 * @param staleWhileRevalidate stale-while-revalidate in seconds
 * @param staleIfError         stale-if-error in seconds
 * @param immutable            immutable
 * @param noTransform          no-transform
 */
public record CacheControl(
        boolean noStore,
        boolean noCache,
        List<String> noCacheFields,
        boolean isPrivate,
        List<String> privateFields,
        boolean isPublic,
        OptionalLong maxAge,
        OptionalLong sMaxAge,
        boolean mustRevalidate,
        boolean proxyRevalidate,
        boolean mustUnderstand,
        OptionalLong maxStale,
        OptionalLong minFresh,
        boolean onlyIfCached,
        OptionalLong staleWhileRevalidate,
        OptionalLong staleIfError,
        boolean immutable,
        boolean noTransform) {

    /** The largest delta-seconds value a cache keeps (RFC 9111 §1.2.2). */
    public static final long MAX_DELTA_SECONDS = DeltaSeconds.MAX;

    /** No directives at all. */
    public static final CacheControl NONE = parse(List.of());

    public CacheControl {
        noCacheFields = List.copyOf(noCacheFields);
        privateFields = List.copyOf(privateFields);
        Objects.requireNonNull(maxAge, "maxAge");
        Objects.requireNonNull(sMaxAge, "sMaxAge");
        Objects.requireNonNull(maxStale, "maxStale");
        Objects.requireNonNull(minFresh, "minFresh");
        Objects.requireNonNull(staleWhileRevalidate, "staleWhileRevalidate");
        Objects.requireNonNull(staleIfError, "staleIfError");
    }

    /** Parses every Cache-Control field line of the given headers (none gives {@link #NONE}). */
    public static CacheControl of(HttpHeaders headers) {
        return parse(headers.getAll(HttpHeaderNames.CACHE_CONTROL));
    }

    /** Parses every Cache-Control field line of a stored response. */
    public static CacheControl of(ObjectMetadata stored) {
        return parse(stored.headers("Cache-Control"));
    }

    /** Parses Cache-Control field lines (each may hold a comma-separated list); null elements are skipped. */
    public static CacheControl parse(List<String> headerValues) {
        Builder b = new Builder();
        if (headerValues != null) {
            for (String value : headerValues) {
                if (value != null) {
                    new Lexer(value, b).run();
                }
            }
        }
        return b.build();
    }

    /** True when the response names a fresh-for-shared-cache lifetime or is public, i.e. overrides the Authorization rule (RFC 9111 §3.5). */
    public boolean allowsSharedCachingWithAuthorization() {
        return isPublic || sMaxAge.isPresent() || mustRevalidate;
    }

    /** True when a stale copy of this response must not be served without revalidation (RFC 9111 §4.2.4). */
    public boolean forbidsStale() {
        return mustRevalidate || proxyRevalidate || sMaxAge.isPresent() || noCache;
    }

    /** Collects directives while parsing. Not thread-safe. */
    private static final class Builder {
        boolean noStore;
        boolean noCache;
        final Set<String> noCacheFields = new LinkedHashSet<>();
        boolean isPrivate;
        final Set<String> privateFields = new LinkedHashSet<>();
        boolean isPublic;
        Long maxAge;
        Long sMaxAge;
        boolean mustRevalidate;
        boolean proxyRevalidate;
        boolean mustUnderstand;
        Long maxStale;
        Long minFresh;
        boolean onlyIfCached;
        Long staleWhileRevalidate;
        Long staleIfError;
        boolean immutable;
        boolean noTransform;

        void directive(String name, String argument) {
            switch (name) {
                case "no-store" -> noStore = true;
                case "no-cache" -> {
                    List<String> fields = fieldNames(argument);
                    if (fields.isEmpty()) {
                        noCache = true;
                    } else {
                        noCacheFields.addAll(fields);
                    }
                }
                case "private" -> {
                    List<String> fields = fieldNames(argument);
                    if (fields.isEmpty()) {
                        isPrivate = true;
                    } else {
                        privateFields.addAll(fields);
                    }
                }
                case "public" -> isPublic = true;
                case "max-age" -> maxAge = smallest(maxAge, deltaSeconds(argument).orElse(0));
                case "s-maxage" -> sMaxAge = smallest(sMaxAge, deltaSeconds(argument).orElse(0));
                case "must-revalidate" -> mustRevalidate = true;
                case "proxy-revalidate" -> proxyRevalidate = true;
                case "must-understand" -> mustUnderstand = true;
                case "max-stale" -> {
                    if (maxStale == null) {
                        if (argument == null) {
                            maxStale = Long.MAX_VALUE;
                        } else {
                            OptionalLong v = deltaSeconds(argument);
                            maxStale = v.isPresent() ? v.getAsLong() : null;
                        }
                    }
                }
                case "min-fresh" -> minFresh = firstValid(minFresh, argument);
                case "only-if-cached" -> onlyIfCached = true;
                case "stale-while-revalidate" -> staleWhileRevalidate = firstValid(staleWhileRevalidate, argument);
                case "stale-if-error" -> staleIfError = firstValid(staleIfError, argument);
                case "immutable" -> immutable = true;
                case "no-transform" -> noTransform = true;
                default -> {
                    // extension directive this cache does not implement: ignored (RFC 9111 §5.2.3)
                }
            }
        }

        private static Long smallest(Long current, long candidate) {
            return current == null ? candidate : Math.min(current, candidate);
        }

        private static Long firstValid(Long current, String argument) {
            if (current != null) {
                return current;
            }
            OptionalLong v = deltaSeconds(argument);
            return v.isPresent() ? v.getAsLong() : null;
        }

        private static List<String> fieldNames(String argument) {
            if (argument == null) {
                return List.of();
            }
            List<String> names = new ArrayList<>();
            for (String part : argument.split(",")) {
                String name = part.trim().toLowerCase(Locale.ROOT);
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
            return names;
        }

        CacheControl build() {
            return new CacheControl(noStore, noCache, List.copyOf(noCacheFields), isPrivate,
                    List.copyOf(privateFields), isPublic, opt(maxAge), opt(sMaxAge), mustRevalidate,
                    proxyRevalidate, mustUnderstand, opt(maxStale), opt(minFresh), onlyIfCached,
                    opt(staleWhileRevalidate), opt(staleIfError), immutable, noTransform);
        }

        private static OptionalLong opt(Long v) {
            return v == null ? OptionalLong.empty() : OptionalLong.of(v);
        }
    }

    /** Parses delta-seconds (1*DIGIT), clamped to {@link #MAX_DELTA_SECONDS}; empty when absent or invalid. */
    static OptionalLong deltaSeconds(String argument) {
        return DeltaSeconds.parse(argument);
    }

    /** Splits one field line into directives, honouring quoted strings. Not thread-safe. */
    private static final class Lexer {
        private final String s;
        private final Builder out;
        private int i;

        Lexer(String s, Builder out) {
            this.s = s;
            this.out = out;
        }

        void run() {
            while (i < s.length()) {
                skipSpaces();
                int nameStart = i;
                while (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != '=') {
                    i++;
                }
                String name = s.substring(nameStart, i).trim().toLowerCase(Locale.ROOT);
                String argument = null;
                if (i < s.length() && s.charAt(i) == '=') {
                    i++;
                    skipSpaces();
                    argument = i < s.length() && s.charAt(i) == '"' ? quoted() : token();
                }
                // anything up to the next comma after a quoted argument is junk; skip it
                while (i < s.length() && s.charAt(i) != ',') {
                    i++;
                }
                i++; // past the comma (or the end)
                if (!name.isEmpty()) {
                    out.directive(name, argument);
                }
            }
        }

        private void skipSpaces() {
            while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                i++;
            }
        }

        private String token() {
            int start = i;
            while (i < s.length() && s.charAt(i) != ',') {
                i++;
            }
            return s.substring(start, i).trim();
        }

        private String quoted() {
            StringBuilder sb = new StringBuilder();
            i++; // opening quote
            while (i < s.length()) {
                char c = s.charAt(i++);
                if (c == '\\' && i < s.length()) {
                    sb.append(s.charAt(i++));
                } else if (c == '"') {
                    return sb.toString();
                } else {
                    sb.append(c);
                }
            }
            return sb.toString(); // unterminated: take what there is
        }
    }
}
