package net.hopwise.voip.relay;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.hopwise.voip.sip.NameAddr;
import net.hopwise.voip.sip.SipMessage;

/**
 * The location service of one relay for the phones of its site (RFC 3261 section 10.3): bindings of
 * an address of record to contacts, each with an expiry, plus the address the REGISTER came from so
 * that a phone behind NAT is reached where it really is. Sans-IO: time is passed in.
 */
public final class Registrar {
    /** A binding's contact, where to send it requests, and when it lapses. */
    public record Binding(String contactUri, InetSocketAddress source, boolean tcp, long expiresAtNanos) {}

    /** What a REGISTER came to: a status, the bindings now held (for 200), or the Min-Expires for 423. */
    public record Outcome(int status, List<Binding> bindings, int minExpires) {}

    private final int minExpires;
    private final int maxExpires;
    private final Map<String, Map<String, Binding>> byAor = new HashMap<>();
    /** Grows with every change of the addresses of record held, so a publisher knows when to look again. */
    private long version;

    public Registrar(int minExpiresSeconds, int maxExpiresSeconds) {
        this.minExpires = minExpiresSeconds;
        this.maxExpires = maxExpiresSeconds;
    }

    /** Applies a REGISTER (RFC 3261 section 10.3 steps 5 to 8). */
    public Outcome register(SipMessage register, InetSocketAddress source, boolean tcp, long nowNanos) {
        expire(nowNanos);
        version++;
        NameAddr to = register.to();
        SipUri aor = to == null ? null : SipUri.parse(to.uri());
        if (aor == null) {
            return new Outcome(400, List.of(), 0);
        }
        String key = aor.addressOfRecord();
        List<NameAddr> contacts = register.contacts();
        if (contacts == null) {
            return new Outcome(400, List.of(), 0);
        }
        int headerExpires = parseExpires(register.header("Expires"), -1);
        if (contacts.size() == 1 && contacts.get(0) == NameAddr.WILDCARD) {
            if (headerExpires != 0) {
                return new Outcome(400, List.of(), 0);
            }
            byAor.remove(key);
            return new Outcome(200, List.of(), 0);
        }
        Map<String, Binding> bindings = byAor.computeIfAbsent(key, k -> new LinkedHashMap<>());
        for (NameAddr c : contacts) {
            if (c == NameAddr.WILDCARD) {
                return new Outcome(400, List.of(), 0);
            }
            int expires = parseExpires(c.params().get("expires"), headerExpires < 0 ? 3600 : headerExpires);
            if (expires == 0) {
                bindings.remove(c.uri());
                continue;
            }
            if (expires < minExpires) {
                return new Outcome(423, List.of(), minExpires);
            }
            expires = Math.min(expires, maxExpires);
            bindings.put(c.uri(), new Binding(c.uri(), source, tcp, nowNanos + TimeUnit.SECONDS.toNanos(expires)));
        }
        if (bindings.isEmpty()) {
            byAor.remove(key);
        }
        return new Outcome(200, new ArrayList<>(bindings.values()), 0);
    }

    /**
     * The live binding for a Request-URI: by its address of record, else the only address of record
     * with this user (phones often register under an IP literal while callers dial a domain).
     */
    public Binding lookup(SipUri uri, long nowNanos) {
        List<Binding> all = lookupAll(uri, nowNanos);
        return all.isEmpty() ? null : all.get(0);
    }

    /**
     * Every live binding for a Request-URI, oldest first (as {@link #lookup} finds its address of
     * record): a user with several phones is called on each of them at once.
     */
    public List<Binding> lookupAll(SipUri uri, long nowNanos) {
        expire(nowNanos);
        if (uri == null) {
            return List.of();
        }
        Map<String, Binding> exact = byAor.get(uri.addressOfRecord());
        if (exact != null && !exact.isEmpty()) {
            return List.copyOf(exact.values());
        }
        if (uri.user() == null) {
            return List.of();
        }
        Map<String, Binding> found = null;
        for (Map.Entry<String, Map<String, Binding>> e : byAor.entrySet()) {
            if (e.getKey().startsWith(uri.user() + "@") && !e.getValue().isEmpty()) {
                if (found != null) {
                    return List.of();
                }
                found = e.getValue();
            }
        }
        return found == null ? List.of() : List.copyOf(found.values());
    }

    /** Drops lapsed bindings. */
    public void expire(long nowNanos) {
        for (Iterator<Map<String, Binding>> it = byAor.values().iterator(); it.hasNext(); ) {
            Map<String, Binding> m = it.next();
            m.values().removeIf(b -> b.expiresAtNanos() - nowNanos <= 0);
            if (m.isEmpty()) {
                it.remove();
                version++;
            }
        }
    }

    /** A number that changes whenever the addresses of record held may have. */
    public long version() {
        return version;
    }

    /** The addresses of record with at least one binding, as keys of {@link #bindings()}. */
    public java.util.Set<String> addressesOfRecord() {
        return java.util.Set.copyOf(byAor.keySet());
    }

    /** Addresses of record with at least one binding. */
    public int size() {
        return byAor.size();
    }

    public Map<String, List<Binding>> bindings() {
        Map<String, List<Binding>> copy = new LinkedHashMap<>();
        byAor.forEach((k, v) -> copy.put(k, List.copyOf(v.values())));
        return copy;
    }

    static int seconds(Binding b, long nowNanos) {
        return (int) Math.max(0, TimeUnit.NANOSECONDS.toSeconds(b.expiresAtNanos() - nowNanos));
    }

    private static int parseExpires(String value, int fallback) {
        if (value == null) {
            return fallback;
        }
        String v = value.trim();
        if (v.isEmpty() || v.length() > 10 || !v.chars().allMatch(Character::isDigit)) {
            return fallback;
        }
        long n = Long.parseLong(v);
        return (int) Math.min(n, Integer.MAX_VALUE);
    }
}
