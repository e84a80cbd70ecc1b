"""What the site's app (``tournaments``) and the Django project (``jokeren``) both need,
below both of them: the session's log-in checked within a move's read (``auth``) and rows
read and written with SQL written once (``rows``). It imports neither."""
