// A finished daily's result to share (daily/templates/daily/_share.html): the Share button
// offers the text to the device's own sharing (the Web Share API, on phones), or else copies it;
// without scripts the text stands in its box to copy by hand.
function showButton() {
  const button = document.getElementById("share-button");
  if (button && (navigator.share || (navigator.clipboard && window.isSecureContext))) button.hidden = false;
}
document.addEventListener("DOMContentLoaded", showButton);
document.addEventListener("htmx:afterSettle", showButton);  // the result comes with the last move's answer
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("#share-button");
  if (!button) return;
  const text = document.getElementById("share-text").value;
  const said = document.getElementById("share-said");
  if (navigator.share) {
    navigator.share({ text: text }).catch(() => { /* the player closed the sheet */ });
  } else {
    navigator.clipboard.writeText(text).then(() => { if (said) said.textContent = button.dataset.copiedText; });
  }
});
