package net.hopwise.voip.relay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import net.hopwise.voip.sip.CSeq;
import net.hopwise.voip.sip.SipMessage;
import net.hopwise.voip.sip.Via;

/**
 * The relay's transactions (RFC 3261 section 17, as a stateful proxy keeps them, section 16): a
 * server transaction per request received (keyed by its top Via branch and method, so that
 * retransmissions are answered from the last response and CANCEL finds its INVITE), and a client
 * transaction per request forwarded (keyed by the branch the relay wrote, so that responses find
 * their way back). Retransmission and timeout deadlines live here; {@link SipProxy} acts on them.
 *
 * <p>A transaction outlives its final response by the transaction wait (64 T1, 32 s by default) to
 * absorb retransmissions, so a relay under load holds thousands of finished transactions and few
 * pending ones. The timers therefore never walk every transaction: expiries are kept in deadline
 * order ({@link #expireAt}), and the retransmission timers walk only the client transactions still
 * waiting for a final response ({@link #pendingClients}).
 */
final class Transactions {
    /** A request this relay received and must answer. */
    static final class Server {
        final String key;
        final Hop source;
        final String method;
        final byte[] request;
        final boolean initial;
        int lastStatus;
        byte[] lastResponse;
        /** The requests forwarded for this one: one branch per target, several for a forked INVITE. */
        final List<Client> branches = new ArrayList<>(1);
        /** The caller cancelled the request. */
        boolean cancelled;
        /**
         * The best failure the branches gave so far (section 16.7 step 6), ready to forward: its status,
         * the message as it leaves (null for the relay's own answer, a 408 of a branch that timed out)
         * and the overlay ports of its envelope.
         */
        int bestStatus;
        byte[] bestResponse;
        int[] bestPorts;
        /** Set through {@link Transactions#expireAt(Server, long)}, which queues it. */
        long expiresAtNanos = Long.MAX_VALUE;

        Server(String key, Hop source, String method, byte[] request, boolean initial) {
            this.key = key;
            this.source = source;
            this.method = method;
            this.request = request;
            this.initial = initial;
        }
    }

    /** A request this relay forwarded and waits on. */
    static final class Client {
        final String branch;
        final Server server;
        final Hop destination;
        final String method;
        final byte[] forwarded;
        boolean provisional;
        boolean cancelled;
        /** A CANCEL is due once the phone answers provisionally (section 9.1: not before). */
        boolean cancelPending;
        int finalStatus;
        long retransmitAtNanos;
        long intervalNanos;
        long timeoutAtNanos;
        /** Set through {@link Transactions#expireAt(Client, long)}, which queues it. */
        long expiresAtNanos = Long.MAX_VALUE;

        Client(String branch, Server server, Hop destination, String method, byte[] forwarded) {
            this.branch = branch;
            this.server = server;
            this.destination = destination;
            this.method = method;
            this.forwarded = forwarded;
        }
    }

    private final Map<String, Server> servers = new HashMap<>();
    private final Map<String, Client> clients = new HashMap<>();
    /**
     * Every expiry set, earliest first. An entry whose transaction has since been given another
     * expiry, or was replaced under its key, is stale and skipped when it comes up: re-arming is
     * rare (a transaction's expiry is set when it ends), so they are few.
     */
    private final PriorityQueue<Expiry> expiries = new PriorityQueue<>((x, y) -> Long.signum(x.at - y.at));
    /** Client transactions added and not yet seen with a final status, in the order they were added. */
    private final ArrayList<Client> pending = new ArrayList<>();

    private record Expiry(long at, Server server, Client client) { }

    /**
     * The server-transaction key of a request (RFC 3261 section 17.2.3): the branch and method when
     * the branch is an RFC 3261 one (ACK maps to its INVITE), else Call-ID, CSeq, From tag and the
     * top Via's sent-by as an RFC 2543 peer would be matched. Null when the request lacks them.
     */
    static String serverKey(SipMessage m, String method) {
        Via top = m.topVia();
        if (top == null) {
            return null;
        }
        String matched = method.equals("ACK") ? "INVITE" : method;
        if (top.hasRfc3261Branch()) {
            return top.branch() + " " + matched + " " + top.host() + ":" + top.port();
        }
        CSeq cseq = m.cseq();
        return m.callId() + " " + (cseq == null ? "" : cseq.number()) + " " + m.fromTag() + " " + matched + " "
                + top.host() + ":" + top.port();
    }

    Server server(String key) {
        return key == null ? null : servers.get(key);
    }

    void add(Server s) {
        servers.put(s.key, s);
    }

    Client client(String branch) {
        return branch == null ? null : clients.get(branch);
    }

    void add(Client c) {
        clients.put(c.branch, c);
        pending.add(c);
    }

    /**
     * The client transactions that may still wait for a final response, in the order they were
     * added; a caller walks it by index (what it does may add more) and then calls
     * {@link #prunePending}. Entries already final or forgotten may remain until then.
     */
    List<Client> pendingClients() {
        return pending;
    }

    /** Drops from {@link #pendingClients} those with a final status or no longer held. */
    void prunePending() {
        pending.removeIf(c -> c.finalStatus != 0 || clients.get(c.branch) != c);
    }

    /** {@code s} is forgotten at {@code at} (RFC 3261's Timers J and K, or at once). */
    void expireAt(Server s, long at) {
        s.expiresAtNanos = at;
        expiries.add(new Expiry(at, s, null));
    }

    /** {@code c} is forgotten at {@code at}. */
    void expireAt(Client c, long at) {
        c.expiresAtNanos = at;
        expiries.add(new Expiry(at, null, c));
    }

    int serverCount() {
        return servers.size();
    }

    int clientCount() {
        return clients.size();
    }

    /**
     * Forgets transactions past their lifetime; returns the earliest expiry still queued (perhaps a
     * stale one: the caller then looks again early, and finds nothing to do). Takes time in proportion
     * to the expiries due, not to the transactions held.
     */
    long expire(long now) {
        Expiry e;
        while ((e = expiries.peek()) != null && now - e.at >= 0) {
            expiries.poll();
            if (e.server != null) {
                if (e.server.expiresAtNanos == e.at && servers.get(e.server.key) == e.server) {
                    servers.remove(e.server.key);
                }
            } else if (e.client.expiresAtNanos == e.at && clients.get(e.client.branch) == e.client) {
                clients.remove(e.client.branch);
            }
        }
        return e == null ? Long.MAX_VALUE : e.at;
    }

    void clear() {
        servers.clear();
        clients.clear();
        expiries.clear();
        pending.clear();
    }
}
