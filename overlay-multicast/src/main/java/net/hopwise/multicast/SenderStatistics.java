package net.hopwise.multicast;

/**
 * One sender's counts since it was made, and its flow-control state at the last packet.
 *
 * @param messages messages taken (held or sent)
 * @param packets packets bought and sent (one per fragment, whatever the tree's fan-out)
 * @param bytes bytes of those packets' bodies, headers of the module included
 * @param blocked sends refused because the previous message was still held
 * @param tokens dollars in the budget (0 without flow control)
 * @param salaryPeriodNanos the salary period now (0 without flow control)
 * @param lastPacketCost the cost C_p of the last packet bought, fee included (0 before any)
 */
public record SenderStatistics(long messages, long packets, long bytes, long blocked, double tokens,
        long salaryPeriodNanos, double lastPacketCost) {}
