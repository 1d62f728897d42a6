import { describe, expect, it } from 'vitest';
import { startIdleLoopProbe } from './idle-loop.js';

describe('startIdleLoopProbe', () => {
  it("reports its own loop's delay at the controller's 10 ms resolution", async () => {
    const probe = startIdleLoopProbe();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const idle = await probe.stop();
    // Timers at 10 ms resolution: the median delay is about the resolution, never below it.
    expect(idle.p50).toBeGreaterThanOrEqual(0.009);
    expect(idle.p99).toBeGreaterThanOrEqual(idle.p50);
    expect(idle.max).toBeGreaterThanOrEqual(idle.p99);
    expect(idle.max).toBeLessThan(30);
  });

  it('names the failure when the process cannot report', async () => {
    const probe = startIdleLoopProbe('/bin/false');
    await expect(probe.stop()).rejects.toThrow(/idle event-loop probe exited 1/);
  });
});
