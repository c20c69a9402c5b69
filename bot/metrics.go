package bot

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/setbot/setbot/bot/ghapi"
)

// Metrics are the bot's Prometheus metrics, in a registry of their own.
type Metrics struct {
	registry    *prometheus.Registry
	webhooks    *prometheus.CounterVec
	jobs        *prometheus.CounterVec
	jobSeconds  *prometheus.HistogramVec
	analysis    *prometheus.HistogramVec
	apiErrors   *prometheus.CounterVec
	tokenErrors *prometheus.CounterVec
	reading     prometheus.Gauge
}

func newMetrics(b *Bot) *Metrics {
	m := &Metrics{registry: prometheus.NewRegistry()}
	m.webhooks = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "setbot_webhooks_total", Help: "Webhook deliveries by event and outcome (queued, duplicate, ignored, error).",
	}, []string{"event", "outcome"})
	m.jobs = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "setbot_jobs_total", Help: "Jobs ended, by kind and outcome (done, failed, superseded, interrupted, requeued, lost: taken over by another replica); superseded counts jobs cancelled while queued too.",
	}, []string{"kind", "outcome"})
	m.jobSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "setbot_job_duration_seconds", Help: "Time a worker spent on one run of a job, by kind and outcome.",
		Buckets: prometheus.ExponentialBuckets(0.05, 3, 11),
	}, []string{"kind", "outcome"})
	m.tokenErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "setbot_installation_token_errors_total", Help: "Job runs that could not get their installation's token, by outcome (requeued, failed).",
	}, []string{"outcome"})
	m.reading = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "setbot_webhook_bodies_reading", Help: "Webhook bodies being read now.",
	})
	m.analysis = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "setbot_analysis_seconds", Help: "Time to analyse one changed model (base and head trees), by strategy.",
		Buckets: prometheus.ExponentialBuckets(0.01, 4, 9),
	}, []string{"strategy"})
	m.apiErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "setbot_github_api_errors_total", Help: "GitHub API events: calls that failed, retries, rate-limit waits.",
	}, []string{"event"})
	queueDepth := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "setbot_queue_depth", Help: "Jobs waiting in the queue.",
	}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		n, err := b.queue.Depth(ctx)
		if err != nil {
			return -1
		}
		return float64(n)
	})
	jobAge := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "setbot_job_age_seconds", Help: "Age of the oldest queued job (0 when none waits).",
	}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		d, err := b.queue.OldestQueued(ctx)
		if err != nil {
			return -1
		}
		return d.Seconds()
	})
	rate := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "setbot_github_rate_remaining", Help: "Remaining GitHub core rate limit last seen (-1 before any response).",
	}, func() float64 { return float64(b.rateRemaining()) })
	m.registry.MustRegister(m.webhooks, m.jobs, m.jobSeconds, m.analysis, m.apiErrors, m.tokenErrors, m.reading, queueDepth, jobAge, rate,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// GitHubEvent counts an event of the GitHub client (ghapi.Config.Metrics).
func (m *Metrics) GitHubEvent(event string) {
	switch event {
	case ghapi.EventAPIError, ghapi.EventRetry, ghapi.EventRateLimited, ghapi.EventAbuseLimited:
		m.apiErrors.WithLabelValues(event).Inc()
	}
}

// Handler serves the metrics in Prometheus' text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}
