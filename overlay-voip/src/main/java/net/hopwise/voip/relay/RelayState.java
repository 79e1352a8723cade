package net.hopwise.voip.relay;

/**
 * What a relay holds, at one instant: every field is zero when it is idle (no transaction, call or
 * media port left over after the calls ended and their linger passed).
 *
 * @param serverTransactions requests received and not yet forgotten
 * @param clientTransactions requests forwarded and not yet forgotten
 * @param calls calls, ended ones lingering included
 * @param mediaPortPairs RTP/RTCP port pairs taken from the pool
 * @param registrations addresses of record with a live binding (not part of {@link #idle()})
 */
public record RelayState(int serverTransactions, int clientTransactions, int calls, int mediaPortPairs,
        int registrations) {
    /** No transaction, call or media port held. */
    public boolean idle() {
        return serverTransactions == 0 && clientTransactions == 0 && calls == 0 && mediaPortPairs == 0;
    }
}
