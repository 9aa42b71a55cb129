import { describe, expect, it } from '@jest/globals';
import { metricValue } from './prometheus.js';

describe('metricValue', () => {
  const exposition = [
    '# HELP process_resident_memory_bytes Resident memory size in bytes.',
    '# TYPE process_resident_memory_bytes gauge',
    'process_resident_memory_bytes 104857600',
    'nodejs_eventloop_lag_p99_seconds 0.012',
    'petstore_http_requests_total{method="GET",route="/v1/pets",status="200"} 40',
    'petstore_http_requests_total{method="POST",route="/v1/pets",status="201"} 2',
    'petstore_http_requests_total{method="GET",route="unmatched",status="200"} 1000',
    'petstore_http_requests_total_extra 7',
  ].join('\n');

  it('reads a gauge, and sums a counter over its label sets', () => {
    expect(metricValue(exposition, 'process_resident_memory_bytes')).toBe(104857600);
    expect(metricValue(exposition, 'nodejs_eventloop_lag_p99_seconds')).toBe(0.012);
    expect(metricValue(exposition, 'petstore_http_requests_total')).toBe(1042);
    expect(metricValue(exposition, 'petstore_http_requests_total', 'route="/v1/pets"')).toBe(42);
  });

  it('answers null for a metric that is not there', () => {
    expect(metricValue(exposition, 'nodejs_heap_size_used_bytes')).toBeNull();
  });
});
