export { Histogram, HISTOGRAM_MAX, type HistogramBucket, histogramDataOfMs, mergeHistogramData } from './Histogram.js';
export { classifyExchange, isOk, type CallOutcome, type Classification, type Exchange } from './classifyExchange.js';
export { LoadRecorder, type RecordedFigures, type RequestTiming, type ScheduleCounts, type TickReport } from './LoadRecorder.js';
export { TimelineBuilder } from './TimelineBuilder.js';
