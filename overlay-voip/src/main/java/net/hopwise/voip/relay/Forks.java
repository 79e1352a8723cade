package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import net.hopwise.voip.sip.SipParseResult;
import net.hopwise.voip.sip.SipRequests;

/**
 * Parallel forking (RFC 3261 section 16.7): the branches of one request, the best of their failures
 * held back until every branch ended, the other branches cancelled once a 2xx came (or a 6xx, which
 * ends the search at once). A request with one target is a fork of one branch: its failure goes
 * upstream as soon as it comes, as before forking existed. Every 2xx is forwarded, the winner's and
 * a later one alike: the caller ACKs the second dialog and ends it with a BYE (section 13.2.2.4),
 * which is how a stateful proxy can let two phones that answered at the same instant both know.
 */
final class Forks {
    private final SipProxy proxy;

    Forks(SipProxy proxy) {
        this.proxy = proxy;
    }

    /**
     * Whether {@code status} is a better final response to give the caller than {@code than} (0: none
     * yet), as section 16.7 step 6 ranks them: a 6xx over anything, else the lowest class, and within
     * 4xx the responses a caller can act on (a challenge, an unsupported body or extension, an
     * incomplete address) over the others. Among equals the first one kept stays.
     */
    static boolean better(int status, int than) {
        if (than == 0) {
            return true;
        }
        int cls = status / 100;
        int thanCls = than / 100;
        if (thanCls == 6) {
            return false;
        }
        if (cls == 6) {
            return true;
        }
        if (cls != thanCls) {
            return cls < thanCls;
        }
        return cls == 4 && actionable(status) && !actionable(than);
    }

    private static boolean actionable(int status) {
        return status == 401 || status == 407 || status == 415 || status == 420 || status == 484;
    }

    /**
     * A branch ended in failure ({@code out}: the response as it would leave, owned here; null for a
     * branch that timed out, answered by the relay's own {@code status}). Keeps the best; answers
     * upstream once no branch is left, or at once for a 6xx, cancelling the others.
     */
    void onFailure(Transactions.Server server, Transactions.Client branch, int status, ByteBuf out, int[] ports,
            long now) {
        try {
            if (server.lastStatus >= 200) {
                // A 2xx went upstream already; a failure of another branch has nobody to tell.
                return;
            }
            if (better(status, server.bestStatus)) {
                server.bestStatus = status;
                server.bestResponse = out == null ? null : ProxyMessages.bytes(out);
                server.bestPorts = ports;
            }
        } finally {
            if (out != null) {
                out.release();
            }
        }
        if (status >= 600) {
            cancelOthers(server, branch);
        } else if (pending(server)) {
            return;
        }
        proxy.responses.forwardBest(server, now);
    }

    /** A 2xx came on {@code branch}: the first one cancels the branches still ringing (step 10). */
    void onSuccess(Transactions.Server server, Transactions.Client branch) {
        if (server.lastStatus < 200) {
            cancelOthers(server, branch);
        }
    }

    /** The caller cancelled: every branch still without a final response is cancelled (section 16.10). */
    void cancelAll(Transactions.Server server) {
        cancelOthers(server, null);
    }

    private void cancelOthers(Transactions.Server server, Transactions.Client except) {
        for (Transactions.Client c : server.branches) {
            if (c != except && c.finalStatus == 0 && !c.cancelled) {
                cancel(c);
            }
        }
    }

    /** The client transaction of one branch, with its retransmission and timeout deadlines. */
    Transactions.Client branch(String branch, Transactions.Server server, Hop to, String method, ByteBuf out,
            long now) {
        Transactions.Client client = new Transactions.Client(branch, server, to, method, ProxyMessages.bytes(out));
        long t1 = proxy.config.t1().toNanos();
        // Over the overlay the session delivers, so only Timer C bounds an INVITE there.
        client.timeoutAtNanos = now + (to instanceof Hop.Node && method.equals("INVITE")
                ? proxy.config.inviteTimeout().toNanos() : 64 * t1);
        if (to instanceof Hop.Phone p && !p.tcp()) {
            client.intervalNanos = t1;
            client.retransmitAtNanos = now + t1;
        }
        return client;
    }

    /**
     * Cancels a forwarded INVITE on the branch's way (section 16.10): at once over the overlay, whose
     * session delivers in order; to a phone only once it answered provisionally (section 9.1).
     */
    void cancel(Transactions.Client branch) {
        branch.cancelled = true;
        if (branch.destination instanceof Hop.Phone && !branch.provisional) {
            branch.cancelPending = true;
            return;
        }
        sendCancel(branch);
    }

    void sendCancel(Transactions.Client branch) {
        SipParseResult forwarded = ProxyMessages.parseStored(branch.forwarded);
        try {
            if (forwarded.isMessage()) {
                ByteBuf cancel = SipRequests.cancel(forwarded.message(), proxy.alloc);
                if (cancel != null) {
                    proxy.send(branch.destination, cancel, null);
                }
            }
        } finally {
            forwarded.release();
        }
    }

    /** Whether some branch has no final response yet. */
    private static boolean pending(Transactions.Server server) {
        for (Transactions.Client c : server.branches) {
            if (c.finalStatus == 0) {
                return true;
            }
        }
        return false;
    }
}
