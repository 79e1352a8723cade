package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import java.util.List;
import net.hopwise.voip.body.SipBody;
import net.hopwise.voip.sip.CSeq;
import net.hopwise.voip.sip.SipMessage;
import net.hopwise.voip.sip.SipMessageEditor;
import net.hopwise.voip.sip.SipParseResult;
import net.hopwise.voip.sip.SipRequests;
import net.hopwise.voip.sip.Via;

/**
 * The way back of a stateful proxy (RFC 3261 sections 16.7 and 17): responses matched to the
 * branch the relay forwarded, the hop-by-hop ACK of a failure, the dialog table fed from INVITE
 * responses (one dialog per branch of a fork, {@link Forks}), the relay's own answers (kept so that
 * a retransmitted request is answered again), and the client transactions' timers: retransmission towards phones over UDP, Timer B/F, and Timer C,
 * which cancels an INVITE nobody answers and answers 408 upstream.
 */
final class ResponsePath {
    private final SipProxy proxy;

    ResponsePath(SipProxy proxy) {
        this.proxy = proxy;
    }

    void onResponse(SipMessage m, Hop from, int[] ports, long now) {
        Via top = m.topVia();
        Transactions.Client client = top == null ? null : proxy.transactions.client(top.branch());
        if (client == null) {
            proxy.counters.unmatchedResponses++;
            return;
        }
        CSeq cseq = m.cseq();
        if (cseq == null || !cseq.method().equals(client.method)) {
            // The 200 to a CANCEL this relay sent ends there.
            return;
        }
        int status = m.statusCode();
        boolean invite = client.method.equals("INVITE");
        if (status < 200) {
            client.provisional = true;
            if (invite) {
                client.retransmitAtNanos = 0;
                client.timeoutAtNanos = now + proxy.config.inviteTimeout().toNanos();
                if (client.cancelPending) {
                    client.cancelPending = false;
                    proxy.forks.sendCancel(client);
                }
            }
            if (status == 100) {
                return;
            }
        } else {
            boolean retransmission = client.finalStatus != 0;
            if (invite && status >= 300 && client.destination instanceof Hop.Phone) {
                ackFailure(client, m);
            }
            if (retransmission && !(invite && status < 300)) {
                proxy.counters.retransmissionsAbsorbed++;
                return;
            }
            client.finalStatus = status;
            client.cancelPending = false;
            client.retransmitAtNanos = 0;
            client.timeoutAtNanos = Long.MAX_VALUE;
            proxy.transactions.expireAt(client, now + proxy.config.transactionWait().toNanos());
        }
        Transactions.Server server = client.server;
        if (server != null && status < 200 && server.lastStatus >= 200) {
            // No provisional response after a final one (section 16.7 step 5 forwards them while
            // the request is pending only).
            return;
        }
        Call call = proxy.calls.get(m.callId());
        boolean otherBranch = false;
        if (call != null && invite && server != null && server.initial) {
            otherBranch = dialog(call, m.toTag(), status, from);
        }
        if (server == null) {
            return;
        }
        SipMessageEditor e = SipMessageEditor.of(m);
        e.popVia();
        int[] envelopePorts = otherBranch ? otherBranchAnswer(m, e, from, server.source, call)
                : proxy.sdp.apply(m, e, from, server.source, call, ports, now);
        if (envelopePorts == MessageSdp.REFUSED) {
            return;
        }
        if (server.source instanceof Hop.Phone p && p.tcp()) {
            e.ensureContentLength();
        }
        ByteBuf out = e.encode(proxy.alloc);
        if (invite && status >= 300) {
            proxy.forks.onFailure(server, client, status, out, envelopePorts, now);
            return;
        }
        if (invite && status >= 200) {
            proxy.forks.onSuccess(server, client);
        }
        remember(server, status, out, now);
        proxy.send(server.source, out, envelopePorts);
    }

    /**
     * The dialog table fed by a response to the call's INVITE: each callee tag and its hop (every
     * branch of a fork is a dialog of its own), the call's own dialog from the first 2xx (or, before
     * it, the first early dialog, as PRACK and UPDATE may follow). Returns whether the response is a
     * 2xx of a branch that lost to an earlier 2xx.
     */
    private static boolean dialog(Call call, String toTag, int status, Hop from) {
        if (toTag != null) {
            call.calleeHops.putIfAbsent(toTag, from);
        }
        if (status >= 200 && status < 300) {
            if (call.state == Call.State.SETUP) {
                call.calleeTag = toTag;
                call.calleeHop = from;
                call.state = Call.State.CONFIRMED;
                return false;
            }
            return toTag != null && !toTag.equals(call.calleeTag);
        }
        if (status < 200 && toTag != null && call.calleeTag == null) {
            call.calleeTag = toTag;
            call.calleeHop = from;
        }
        return false;
    }

    /**
     * The SDP of a 2xx from a branch that lost to an earlier 2xx: the caller will ACK it and hang it
     * up at once, and its media must not take over the call's streams. It leaves with the call's own
     * relay ports and addresses; the streams keep their targets.
     */
    private int[] otherBranchAnswer(SipMessage m, SipMessageEditor e, Hop from, Hop to, Call call) {
        if (m.bodyLength() == 0) {
            return null;
        }
        SipBody body = SipBody.of(m);
        if (!body.hasSdp()) {
            return null;
        }
        if (from instanceof Hop.Phone && to instanceof Hop.Node) {
            return proxy.calls.overlayPorts(call);
        }
        if (from instanceof Hop.Node && to instanceof Hop.Phone) {
            byte[] rewritten = proxy.calls.toPhoneKeepingTargets(call, body.sdp());
            if (rewritten != null) {
                e.replaceBody(body.withSdp(rewritten), null);
            }
        }
        return null;
    }

    /** Sends the best failure the branches of {@code server} gave, the last of them having ended. */
    void forwardBest(Transactions.Server server, long now) {
        if (server.bestResponse == null) {
            answer(server, server.bestStatus, now);
            return;
        }
        ByteBuf out = proxy.alloc.buffer(server.bestResponse.length).writeBytes(server.bestResponse);
        remember(server, server.bestStatus, out, now);
        proxy.send(server.source, out, server.bestPorts);
        ended(server, server.bestStatus, now);
    }

    /**
     * The INVITE that made a call failed: the call ends (and lingers). Refused for overload further
     * on (503), it gives its media ports back at once: holding them for the linger would make this
     * relay full in turn.
     */
    private void ended(Transactions.Server server, int status, long now) {
        Call call = proxy.calls.get(ProxyMessages.callId(server.request));
        if (server.initial && status >= 300 && call != null && call.state == Call.State.SETUP) {
            proxy.calls.end(call, server.cancelled ? "cancelled" : "rejected " + status, now);
            if (status == 503) {
                proxy.calls.releaseMedia(call);
            }
        }
    }

    private void ackFailure(Transactions.Client client, SipMessage response) {
        SipParseResult forwarded = ProxyMessages.parseStored(client.forwarded);
        try {
            if (forwarded.isMessage()) {
                proxy.send(client.destination, SipRequests.ackForFailure(forwarded.message(), response, proxy.alloc),
                        null);
            }
        } finally {
            forwarded.release();
        }
    }

    private void remember(Transactions.Server server, int status, ByteBuf response, long now) {
        if (status >= server.lastStatus) {
            server.lastStatus = status;
            server.lastResponse = ProxyMessages.bytes(response);
        }
        if (status >= 200) {
            proxy.transactions.expireAt(server, now + proxy.config.transactionWait().toNanos());
        }
    }

    /** Answers a received request with the relay's own final response. */
    void answer(Transactions.Server server, int status, long now) {
        answer(server, status, List.of(), now);
    }

    void answer(Transactions.Server server, int status, List<String[]> extra, long now) {
        if (server.lastStatus >= 200) {
            return;
        }
        SipParseResult request = ProxyMessages.parseStored(server.request);
        try {
            ByteBuf out = request.isMessage()
                    ? ProxyMessages.response(request.message(), status, proxy.words.tag(), extra, proxy.alloc)
                    : null;
            if (out == null) {
                proxy.transactions.expireAt(server, now);
                return;
            }
            remember(server, status, out, now);
            proxy.send(server.source, out, null);
        } finally {
            request.release();
        }
        ended(server, status, now);
    }

    /**
     * Whether a new call would go over the configured maximum, or find no media port pair left: the
     * INVITE is better refused at once, with a time to come back, than forwarded to ring a phone
     * whose answer the relay could not carry. An empty pool counts as ports exhausted, as a failed
     * allocation would.
     */
    boolean overloaded() {
        RelayConfig config = proxy.config;
        if (config.maxCalls() > 0 && proxy.calls.active() >= config.maxCalls()) {
            return true;
        }
        if (proxy.calls.pool().available() == 0) {
            proxy.counters.portsExhausted++;
            return true;
        }
        return false;
    }

    /**
     * Answers 503 with Retry-After (RFC 3261 section 21.5.4), counted; a new call refused gives its
     * ports back at once rather than after the linger, so that overload does not feed itself.
     */
    void refuse(Transactions.Server server, long now) {
        proxy.counters.overloadRefused++;
        Call call = server.initial ? proxy.calls.get(ProxyMessages.callId(server.request)) : null;
        if (call != null) {
            proxy.calls.releaseMedia(call);
        }
        answer(server, 503, List.<String[]>of(
                new String[] {"Retry-After", Long.toString(proxy.config.retryAfter().toSeconds())}), now);
    }

    /** Sends a provisional response of the relay's own (100 Trying: no To tag). */
    void provisional(Transactions.Server server, int status) {
        SipParseResult request = ProxyMessages.parseStored(server.request);
        try {
            if (request.isMessage()) {
                ByteBuf out = ProxyMessages.response(request.message(), status, null, List.of(), proxy.alloc);
                if (out != null) {
                    server.lastStatus = Math.max(server.lastStatus, status);
                    server.lastResponse = ProxyMessages.bytes(out);
                    proxy.send(server.source, out, null);
                }
            }
        } finally {
            request.release();
        }
    }

    /** Retransmits to phones over UDP and ends transactions nobody answered; returns the next deadline. */
    long onTimer(long now) {
        long next = Long.MAX_VALUE;
        long t2 = proxy.config.t2().toNanos();
        // By index: a timeout's CANCEL or failover may add client transactions while this runs.
        List<Transactions.Client> pending = proxy.transactions.pendingClients();
        for (int i = 0; i < pending.size(); i++) {
            Transactions.Client c = pending.get(i);
            if (c.finalStatus != 0) {
                continue;
            }
            if (c.timeoutAtNanos != Long.MAX_VALUE && now - c.timeoutAtNanos >= 0) {
                proxy.counters.transactionTimeouts++;
                if (c.method.equals("INVITE") && c.provisional && !c.cancelled) {
                    proxy.forks.cancel(c);
                }
                c.finalStatus = 408;
                c.cancelPending = false;
                c.retransmitAtNanos = 0;
                c.timeoutAtNanos = Long.MAX_VALUE;
                proxy.transactions.expireAt(c, now + proxy.config.transactionWait().toNanos());
                if (c.server != null) {
                    // A 408 for this branch only: the others of a fork may still answer.
                    proxy.forks.onFailure(c.server, c, 408, null, null, now);
                }
                next = Math.min(next, c.expiresAtNanos);
                continue;
            }
            if (c.retransmitAtNanos != 0 && now - c.retransmitAtNanos >= 0) {
                proxy.counters.retransmissionsSent++;
                proxy.send(c.destination, proxy.alloc.buffer(c.forwarded.length).writeBytes(c.forwarded), null);
                c.intervalNanos = c.method.equals("INVITE") ? 2 * c.intervalNanos : Math.min(2 * c.intervalNanos, t2);
                c.retransmitAtNanos = now + c.intervalNanos;
            }
            if (c.retransmitAtNanos != 0) {
                next = Math.min(next, c.retransmitAtNanos);
            }
            next = Math.min(next, c.timeoutAtNanos);
        }
        proxy.transactions.prunePending();
        return next;
    }
}
