package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import java.util.List;
import net.hopwise.voip.sip.CSeq;
import net.hopwise.voip.sip.SipMessage;
import net.hopwise.voip.sip.SipMessageEditor;
import net.hopwise.voip.sip.SipParseResult;
import net.hopwise.voip.sip.SipRequests;
import net.hopwise.voip.sip.Via;

/**
 * The way back of a stateful proxy (RFC 3261 sections 16.7 and 17): responses matched to the
 * branch the relay forwarded, the hop-by-hop ACK of a failure, the dialog table fed from INVITE
 * responses, the relay's own answers (kept so that a retransmitted request is answered again), and
 * the client transactions' timers: retransmission towards phones over UDP, Timer B/F, and Timer C,
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
        long t1 = proxy.config.t1().toNanos();
        if (status < 200) {
            client.provisional = true;
            if (client.method.equals("INVITE")) {
                client.retransmitAtNanos = 0;
                client.timeoutAtNanos = now + proxy.config.inviteTimeout().toNanos();
            }
            if (status == 100) {
                return;
            }
        } else {
            boolean retransmission = client.finalStatus != 0;
            if (client.method.equals("INVITE") && status >= 300 && client.destination instanceof Hop.Phone) {
                ackFailure(client, m);
            }
            if (retransmission && !(client.method.equals("INVITE") && status < 300)) {
                proxy.counters.retransmissionsAbsorbed++;
                return;
            }
            client.finalStatus = status;
            client.retransmitAtNanos = 0;
            client.timeoutAtNanos = Long.MAX_VALUE;
            client.expiresAtNanos = now + 64 * t1;
        }
        Call call = proxy.calls.get(m.callId());
        if (call != null && client.method.equals("INVITE") && client.server != null && client.server.initial) {
            String toTag = m.toTag();
            if (status >= 200 && status < 300) {
                call.calleeTag = toTag;
                call.calleeHop = from;
                if (call.state == Call.State.SETUP) {
                    call.state = Call.State.CONFIRMED;
                }
            } else if (status < 200 && toTag != null && call.calleeTag == null) {
                // An early dialog: PRACK and UPDATE may follow before the 200.
                call.calleeTag = toTag;
                call.calleeHop = from;
            } else if (status >= 300 && call.state == Call.State.SETUP) {
                proxy.calls.end(call, client.cancelled ? "cancelled" : "rejected " + status, now);
            }
        }
        Transactions.Server server = client.server;
        if (server == null) {
            return;
        }
        SipMessageEditor e = SipMessageEditor.of(m);
        e.popVia();
        int[] envelopePorts = proxy.sdp.apply(m, e, from, server.source, call, ports, now);
        if (envelopePorts == MessageSdp.REFUSED) {
            return;
        }
        if (server.source instanceof Hop.Phone p && p.tcp()) {
            e.ensureContentLength();
        }
        ByteBuf out = e.encode(proxy.alloc);
        remember(server, status, out, now);
        proxy.send(server.source, out, envelopePorts);
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
            server.expiresAtNanos = now + 64 * proxy.config.t1().toNanos();
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
                server.expiresAtNanos = now;
                return;
            }
            remember(server, status, out, now);
            proxy.send(server.source, out, null);
        } finally {
            request.release();
        }
        Call call = proxy.calls.get(ProxyMessages.callId(server.request));
        if (server.initial && status >= 300 && call != null && call.state == Call.State.SETUP) {
            proxy.calls.end(call, "rejected " + status, now);
        }
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
        for (Transactions.Client c : proxy.transactions.clients()) {
            if (c.finalStatus != 0) {
                continue;
            }
            if (c.timeoutAtNanos != Long.MAX_VALUE && now - c.timeoutAtNanos >= 0) {
                proxy.counters.transactionTimeouts++;
                if (c.method.equals("INVITE") && c.provisional && !c.cancelled) {
                    proxy.cancelBranch(c);
                }
                c.finalStatus = 408;
                c.retransmitAtNanos = 0;
                c.timeoutAtNanos = Long.MAX_VALUE;
                c.expiresAtNanos = now + 64 * proxy.config.t1().toNanos();
                if (c.server != null) {
                    answer(c.server, 408, now);
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
        return next;
    }
}
