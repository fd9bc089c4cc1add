// Draws each chart from the JSON data block before it ({title, x: unix seconds, y: lines}).
// The tables work without this script; it only adds the trend charts.
document.querySelectorAll("script.chart-data").forEach(function (block) {
  var data = JSON.parse(block.textContent);
  var target = block.nextElementSibling;
  if (!data.x.length || typeof uPlot === "undefined") {
    target.textContent = data.x.length ? "" : "No points yet.";
    return;
  }
  var width = Math.max(320, Math.min(960, target.clientWidth || 960));
  new uPlot({
    title: data.title,
    width: width,
    height: 260,
    scales: { x: { time: true } },
    series: [{}, { label: "NVIDIA-only lines", stroke: "#76b900", width: 2, fill: "rgba(118,185,0,0.12)" }],
  }, [data.x, data.y], target);
});
