package net.hopwise.voip.relay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.hopwise.voip.sip.CSeq;
import net.hopwise.voip.sip.SipMessage;
import net.hopwise.voip.sip.Via;

/**
 * The relay's transactions (RFC 3261 section 17, as a stateful proxy keeps them, section 16): a
 * server transaction per request received (keyed by its top Via branch and method, so that
 * retransmissions are answered from the last response and CANCEL finds its INVITE), and a client
 * transaction per request forwarded (keyed by the branch the relay wrote, so that responses find
 * their way back). Retransmission and timeout deadlines live here; {@link SipProxy} acts on them.
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
    }

    Iterable<Client> clients() {
        return clients.values();
    }

    int serverCount() {
        return servers.size();
    }

    int clientCount() {
        return clients.size();
    }

    /** Forgets transactions past their lifetime; returns the earliest remaining expiry. */
    long expire(long now) {
        long next = Long.MAX_VALUE;
        for (Iterator<Server> it = servers.values().iterator(); it.hasNext(); ) {
            Server s = it.next();
            if (now - s.expiresAtNanos >= 0 && s.expiresAtNanos != Long.MAX_VALUE) {
                it.remove();
            } else if (s.expiresAtNanos != Long.MAX_VALUE) {
                next = Math.min(next, s.expiresAtNanos);
            }
        }
        for (Iterator<Client> it = clients.values().iterator(); it.hasNext(); ) {
            Client c = it.next();
            if (c.expiresAtNanos != Long.MAX_VALUE && now - c.expiresAtNanos >= 0) {
                it.remove();
            } else {
                next = Math.min(next, c.expiresAtNanos);
            }
        }
        return next;
    }

    void clear() {
        servers.clear();
        clients.clear();
    }
}
