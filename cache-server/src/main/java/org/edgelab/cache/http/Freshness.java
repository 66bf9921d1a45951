package org.edgelab.cache.http;

import org.edgelab.http.DeltaSeconds;
import org.edgelab.http.HttpDates;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;

import java.util.List;
import java.util.OptionalLong;

/**
 * The freshness of a stored response at one moment, as a shared cache computes it (RFC 9111 §4.2),
 * and the checks that decide whether it may be served.
 *
 * <p>Lifetime: {@code s-maxage}, else {@code max-age}, else Expires minus Date (an invalid Expires
 * means already expired), else, where heuristics are allowed (heuristically cacheable status or
 * {@code public}), 10% of Date minus Last-Modified capped at {@link #DEFAULT_HEURISTIC_CAP_SECONDS},
 * else 0. A missing or invalid Date counts as the response time. Age: RFC 9111 §4.2.3 from the Age
 * field (read as §5.1 says, {@link DeltaSeconds#age}: an invalid one is ignored), Date, request and
 * response times and resident time. Ages are kept in milliseconds and reported in whole seconds; a
 * response is fresh while its lifetime exceeds its current age. Immutable and thread-safe.
 */
public final class Freshness {

    /** Heuristic lifetimes are capped at this many seconds (24 h) unless a caller passes another cap. */
    public static final long DEFAULT_HEURISTIC_CAP_SECONDS = 86_400;
    /** The fraction of the time since Last-Modified that a heuristic lifetime uses. */
    public static final double HEURISTIC_FRACTION = 0.1;

    private final CacheControl cacheControl;
    private final long lifetimeSeconds;
    private final boolean heuristic;
    private final long currentAgeMillis;
    private final long initialAgeMillis;
    private final long responseTimeMillis;

    private Freshness(CacheControl cacheControl, long lifetimeSeconds, boolean heuristic, long currentAgeMillis,
                      long initialAgeMillis, long responseTimeMillis) {
        this.cacheControl = cacheControl;
        this.lifetimeSeconds = lifetimeSeconds;
        this.heuristic = heuristic;
        this.currentAgeMillis = currentAgeMillis;
        this.initialAgeMillis = initialAgeMillis;
        this.responseTimeMillis = responseTimeMillis;
    }

    /** Computes the freshness of a stored response at {@code nowMillis}, with the default heuristic cap. */
    public static Freshness of(ObjectMetadata stored, long nowMillis) {
        return of(stored, nowMillis, DEFAULT_HEURISTIC_CAP_SECONDS);
    }

    /** Computes the freshness of a stored response at {@code nowMillis}, capping heuristic lifetimes at the given seconds. */
    public static Freshness of(ObjectMetadata stored, long nowMillis, long heuristicCapSeconds) {
        return compute(stored.status(), stored.headers(), stored.requestTimeMillis(), stored.responseTimeMillis(),
                nowMillis, heuristicCapSeconds);
    }

    /**
     * Returns the moment a response received at {@code responseTimeMillis} stops being fresh, for
     * {@code ObjectMetadata.expiresAtMillis} at store time.
     */
    public static long expiresAtMillis(int status, List<HeaderField> headers, long requestTimeMillis,
                                       long responseTimeMillis) {
        return compute(status, headers, requestTimeMillis, responseTimeMillis, responseTimeMillis,
                DEFAULT_HEURISTIC_CAP_SECONDS).expiresAtMillis();
    }

    /** Returns the moment the stored response stops being fresh, ignoring its recorded expiresAtMillis. */
    public static long expiresAtMillis(ObjectMetadata stored) {
        return expiresAtMillis(stored.status(), stored.headers(), stored.requestTimeMillis(),
                stored.responseTimeMillis());
    }

    private static Freshness compute(int status, List<HeaderField> headers, long requestTime, long responseTime,
                                     long now, long heuristicCapSeconds) {
        CacheControl cc = CacheControl.parse(values(headers, "Cache-Control"));
        OptionalLong date = HttpDates.parseMillis(first(headers, "Date"));
        long dateValue = date.orElse(responseTime);

        long ageValueMillis = DeltaSeconds.age(values(headers, "Age")).orElse(0) * 1000;
        long apparentAge = Math.max(0, responseTime - dateValue);
        long responseDelay = Math.max(0, responseTime - requestTime);
        long correctedAgeValue = ageValueMillis + responseDelay;
        long correctedInitialAge = Math.max(apparentAge, correctedAgeValue);
        long residentTime = Math.max(0, now - responseTime);
        long currentAge = correctedInitialAge + residentTime;

        long lifetime;
        boolean heuristic = false;
        if (cc.sMaxAge().isPresent()) {
            lifetime = cc.sMaxAge().getAsLong();
        } else if (cc.maxAge().isPresent()) {
            lifetime = cc.maxAge().getAsLong();
        } else if (first(headers, "Expires") != null) {
            OptionalLong expires = HttpDates.parseMillis(first(headers, "Expires"));
            lifetime = expires.isPresent() ? Math.max(0, Math.floorDiv(expires.getAsLong() - dateValue, 1000)) : 0;
            lifetime = Math.min(lifetime, CacheControl.MAX_DELTA_SECONDS);
        } else if (Storability.heuristicsAllowed(status, cc)) {
            heuristic = true;
            OptionalLong lastModified = HttpDates.parseMillis(first(headers, "Last-Modified"));
            lifetime = 0;
            if (lastModified.isPresent() && lastModified.getAsLong() < dateValue) {
                long sinceModifiedSeconds = (dateValue - lastModified.getAsLong()) / 1000;
                lifetime = Math.min(Math.max(0, heuristicCapSeconds), (long) (sinceModifiedSeconds * HEURISTIC_FRACTION));
            }
        } else {
            lifetime = 0;
        }
        return new Freshness(cc, lifetime, heuristic, currentAge, correctedInitialAge, responseTime);
    }

    private static List<String> values(List<HeaderField> headers, String name) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(HeaderField::value).toList();
    }

    private static String first(List<HeaderField> headers, String name) {
        for (HeaderField h : headers) {
            if (h.name().equalsIgnoreCase(name)) {
                return h.value();
            }
        }
        return null;
    }

    /** The stored response's Cache-Control directives. */
    public CacheControl cacheControl() {
        return cacheControl;
    }

    /** The freshness lifetime in seconds (RFC 9111 §4.2.1). */
    public long lifetimeSeconds() {
        return lifetimeSeconds;
    }

    /** True when the lifetime was computed heuristically (RFC 9111 §4.2.2), not from explicit directives. */
    public boolean heuristic() {
        return heuristic;
    }

    /** The current age in milliseconds. */
    public long currentAgeMillis() {
        return currentAgeMillis;
    }

    /** The current age in whole seconds, the value of the Age header to send (RFC 9111 §4.2.3, §5.1). */
    public long currentAgeSeconds() {
        return currentAgeMillis / 1000;
    }

    /** True while the lifetime exceeds the current age. */
    public boolean isFresh() {
        return lifetimeSeconds * 1000 > currentAgeMillis;
    }

    /** How many seconds past its lifetime the response is, rounded up (0 while fresh, at least 1 once stale). */
    public long stalenessSeconds() {
        long overMillis = currentAgeMillis - lifetimeSeconds * 1000;
        return overMillis < 0 ? 0 : Math.max(1, -Math.floorDiv(-overMillis, 1000L));
    }

    /** How many whole seconds of freshness remain (0 once stale). */
    public long remainingSeconds() {
        return Math.max(0, lifetimeSeconds * 1000 - currentAgeMillis) / 1000;
    }

    /** The moment the response stops (or stopped) being fresh, in milliseconds since the epoch. */
    public long expiresAtMillis() {
        return responseTimeMillis + lifetimeSeconds * 1000 - initialAgeMillis;
    }

    /**
     * True when this stored response may answer a request with these directives without contacting
     * the origin (RFC 9111 §4 and §5.2.1): neither side has {@code no-cache}, the age is within the
     * request's {@code max-age}, and the response is fresh for at least {@code min-fresh} more seconds,
     * or is stale within the request's {@code max-stale} and allowed to be served stale.
     */
    public boolean satisfies(CacheControl request) {
        if (request.noCache() || cacheControl.noCache()) {
            return false;
        }
        if (request.maxAge().isPresent() && currentAgeSeconds() > request.maxAge().getAsLong()) {
            return false;
        }
        if (isFresh()) {
            return request.minFresh().isEmpty() || remainingSeconds() >= request.minFresh().getAsLong();
        }
        return mayServeStale(cacheControl, request);
    }

    /**
     * True when this stale response may be served without revalidation because the request's
     * {@code max-stale} admits its staleness and the response does not forbid serving it stale
     * ({@code must-revalidate}, {@code proxy-revalidate}, {@code s-maxage}, {@code no-cache}).
     * False while fresh (nothing to allow).
     */
    public boolean mayServeStale(CacheControl response, CacheControl request) {
        if (isFresh() || response.forbidsStale() || request.maxStale().isEmpty()) {
            return false;
        }
        return stalenessSeconds() <= request.maxStale().getAsLong();
    }

    /**
     * True when this stale response may be served while it is revalidated in the background
     * (RFC 5861 {@code stale-while-revalidate}, within its window, and not forbidden by the response).
     */
    public boolean mayServeStaleWhileRevalidate(CacheControl response) {
        if (isFresh() || response.forbidsStale() || response.staleWhileRevalidate().isEmpty()) {
            return false;
        }
        return stalenessSeconds() <= response.staleWhileRevalidate().getAsLong();
    }

    /**
     * True when this stored response may be served because the origin failed (error status 500,
     * 502, 503, 504 or no answer): it is fresh and not {@code no-cache} (which needs a successful
     * validation before every reuse, RFC 9111 §5.2.2.4), or it is stale, {@code stale-if-error} in
     * the response or the request (RFC 5861 §4) covers its staleness, and the response does not
     * forbid serving it stale (RFC 9111 §4.2.4: {@code must-revalidate}, {@code proxy-revalidate},
     * {@code s-maxage}, {@code no-cache}).
     */
    public boolean mayServeStaleOnError(CacheControl response, CacheControl request) {
        if (response.noCache()) {
            return false;
        }
        if (isFresh()) {
            return true;
        }
        if (response.forbidsStale()) {
            return false;
        }
        long window = Math.max(response.staleIfError().orElse(-1), request.staleIfError().orElse(-1));
        return window >= 0 && stalenessSeconds() <= window;
    }

    @Override
    public String toString() {
        return "Freshness[lifetime=" + lifetimeSeconds + "s" + (heuristic ? " (heuristic)" : "") + ", age="
                + currentAgeMillis + "ms, " + (isFresh() ? "fresh" : "stale by " + stalenessSeconds() + "s") + "]";
    }
}
