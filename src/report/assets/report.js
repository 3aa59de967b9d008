(function(){
  var input=document.getElementById('filter');
  var boxes=Array.prototype.slice.call(document.querySelectorAll('.verdict-toggle'));
  var extra=Array.prototype.slice.call(document.querySelectorAll('.row-toggle'));
  var rows=Array.prototype.slice.call(document.querySelectorAll('[data-filterable]'));
  var shown=document.getElementById('shown');
  function apply(){
    var q=input.value.trim().toLowerCase();
    var on={};boxes.forEach(function(b){if(b.checked)on[b.value]=true;});
    var need=extra.filter(function(b){return b.checked;}).map(function(b){return b.value;});
    var n=0;
    rows.forEach(function(r){
      var verdicts=r.getAttribute('data-verdicts').split(' ');
      var ok=verdicts.some(function(v){return on[v];});
      if(ok&&q)ok=r.getAttribute('data-text').indexOf(q)>=0;
      if(ok)ok=need.every(function(flag){return r.hasAttribute('data-'+flag);});
      r.hidden=!ok;if(ok)n++;
    });
    shown.textContent=n+' of '+rows.length+' shown';
  }
  input.addEventListener('input',apply);
  boxes.concat(extra).forEach(function(b){b.addEventListener('change',apply);});
  document.getElementById('expand').addEventListener('click',function(){
    rows.forEach(function(r){if(!r.hidden&&r.tagName==='DETAILS')r.open=true;});});
  document.getElementById('collapse').addEventListener('click',function(){
    rows.forEach(function(r){if(r.tagName==='DETAILS')r.open=false;});});
  function reveal(){var id=decodeURIComponent(location.hash.slice(1));var el=id&&document.getElementById(id);
    if(el&&el.tagName==='DETAILS'){el.hidden=false;el.open=true;el.scrollIntoView();}}
  window.addEventListener('hashchange',reveal);
  // Opening a case scrolls each side to its first marked path.
  rows.forEach(function(r){if(r.tagName!=='DETAILS')return;r.addEventListener('toggle',function(){
    if(!r.open)return;r.querySelectorAll('pre').forEach(function(pre){var hl=pre.querySelector('.hl');
      if(hl)pre.scrollTop=Math.max(0,hl.offsetTop-48);});});});
  apply();reveal();
  document.documentElement.setAttribute('data-ready','1');
})();
